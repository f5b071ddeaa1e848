package remoting

import "testing"

func TestHoldRequestMemoryCountsAgainstTheLimit(t *testing.T) {
	server := NewServer(ServerConfig{Addr: "127.0.0.1:0", RequestMemoryLimit: 100})
	if !server.HoldRequestMemory(60) || server.HoldRequestMemory(60) {
		t.Fatal("a second hold of 60 bytes under a limit of 100 was granted, or the first was not")
	}
	server.ReleaseRequestMemory(60)
	if !server.HoldRequestMemory(100) {
		t.Fatal("the released bytes were not given back")
	}
	if resp := BusyResponse(NewRequest(REGISTER_BROKER, nil, nil)); resp.Code != SYSTEM_BUSY || resp.Remark != remarkOverload {
		t.Fatalf("busy response %d %q", resp.Code, resp.Remark)
	}
}
