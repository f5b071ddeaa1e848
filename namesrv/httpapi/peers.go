package httpapi

import (
	"net/http"

	"github.com/gonamesrv/gonamesrv/namesrv/kvsync"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
)

// peerView is /v1/peers: the last check of each peer NameServer (package
// peers; checked in the background, so this answer never waits for one)
// and the counts it was compared with.
func peerView(src *Source, w http.ResponseWriter, _ *http.Request) {
	list := []peers.Status{}
	if src.Peers != nil {
		list = append(list, src.Peers()...)
	}
	info := src.Routes.ClusterInfo()
	brokers := 0
	for _, bd := range info.BrokerAddrTable {
		brokers += len(bd.BrokerAddrs)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"peers":          list,
		"self":           map[string]any{"addr": src.Addr, "brokers": brokers, "brokerNames": len(info.BrokerAddrTable), "topics": src.Routes.Counts().Topics},
		"intervalMillis": peers.PeerCheckInterval.Milliseconds(),
		"timeoutMillis":  peers.PeerCheckTimeout.Milliseconds(),
		// The KV config exchanges (package kvsync), with a peer account.
		"kvIntervalMillis": kvsync.Interval.Milliseconds(),
	})
}
