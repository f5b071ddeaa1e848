package admin

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestBrokerEpochCacheOnlyInControllerMode(t *testing.T) {
	h, _, _ := newTestHandlers()
	req := remoting.NewRequest(wire.CodeGetBrokerEpochCache, nil, nil)
	if resp := h.GetBrokerEpochCache(req); resp.Code != remoting.SYSTEM_ERROR || resp.Remark != "this request only for controllerMode " {
		t.Fatalf("without controller mode: %d %q", resp.Code, resp.Remark)
	}
	h.ServeEpochCache(func() *wire.EpochEntryCache {
		return &wire.EpochEntryCache{ClusterName: "c", BrokerName: "broker-a", BrokerID: 1, MaxOffset: 7,
			EpochList: []wire.EpochEntry{{Epoch: 3, StartOffset: 0, EndOffset: 1 << 62}}}
	})
	resp := h.GetBrokerEpochCache(req)
	got, err := wire.DecodeEpochEntryCache(resp.Body)
	if resp.Code != remoting.SUCCESS || err != nil || got.BrokerName != "broker-a" || len(got.EpochList) != 1 || got.EpochList[0].Epoch != 3 {
		t.Fatalf("in controller mode: %d %+v %v", resp.Code, got, err)
	}
}
