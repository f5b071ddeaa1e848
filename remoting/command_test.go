package remoting

import "testing"

func TestNewRequestDefaults(t *testing.T) {
	req := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T"}, []byte("b"))
	if req.Code != 105 || req.Language != GO || req.Version != CurrentVersion || req.SerializeType != JSON {
		t.Fatalf("request fields: %+v", req)
	}
	if req.IsResponse() || req.IsOneway() {
		t.Fatalf("fresh request has flag %d", req.Flag)
	}
	if value, ok := req.Ext("topic"); !ok || value != "T" {
		t.Fatalf("Ext(topic) = %q, %v", value, ok)
	}
}

func TestNewResponseMirrorsRequest(t *testing.T) {
	for _, serializeType := range []SerializeType{JSON, ROCKETMQ} {
		req := &Command{Code: 101, Opaque: 42, Language: CPP, Version: 317, SerializeType: serializeType}
		resp := NewResponse(req, QUERY_NOT_FOUND, "missing")
		if !resp.IsResponse() || resp.IsOneway() || resp.Flag != 1 {
			t.Fatalf("response flag %d", resp.Flag)
		}
		if resp.Opaque != 42 || resp.Code != 22 || resp.Remark != "missing" {
			t.Fatalf("response fields: %+v", resp)
		}
		if resp.Language != JAVA || resp.Version != CurrentVersion || resp.SerializeType != serializeType {
			t.Fatalf("response identity: %+v", resp)
		}
		if resp.ExtFields != nil {
			t.Fatalf("response ExtFields = %v, want nil (omitted)", resp.ExtFields)
		}
	}
}

func TestFlagHelpers(t *testing.T) {
	cmd := &Command{}
	cmd.MarkOneway()
	if !cmd.IsOneway() || cmd.IsResponse() || cmd.Flag != 2 {
		t.Fatalf("after MarkOneway flag = %d", cmd.Flag)
	}
	cmd.MarkResponse()
	if !cmd.IsResponse() || cmd.Flag != 3 {
		t.Fatalf("after MarkResponse flag = %d", cmd.Flag)
	}
}

func TestSetExtCreatesMap(t *testing.T) {
	cmd := &Command{}
	if _, ok := cmd.Ext("a"); ok {
		t.Fatal("Ext on nil map reported a value")
	}
	cmd.SetExt("a", "1")
	cmd.SetExt("a", "2")
	if len(cmd.ExtFields) != 1 || cmd.ExtFields["a"] != "2" {
		t.Fatalf("ExtFields = %v", cmd.ExtFields)
	}
}
