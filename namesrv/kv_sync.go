package namesrv

import (
	"encoding/json"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/kvsync"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// peerAccount is the peer account (peerAccessKey, peerSecretKey): what the
// peer checks and the KV sync sign with, and the only signer the KV sync's
// requests are answered to. Both keys are protected (read at start).
func (ns *NameServer) peerAccount() aclsign.Credentials {
	cfg := ns.settings.Get()
	return aclsign.Credentials{AccessKey: cfg.PeerAccessKey, SecretKey: cfg.PeerSecretKey}
}

// registerKVSync serves the KV sync's two requests (package kvsync) on the
// list pool: a digest sorts and hashes the whole store. They are not in the
// dispatch table: the ACL guard's accounts do not decide who is a peer,
// the peer account does (kvsync.Authorize).
func (ns *NameServer) registerKVSync() {
	ns.server.Handle(kvsync.CodeKVDigest, ns.kvDigest, remoting.SlowIn(listPool))
	ns.server.Handle(kvsync.CodeKVPull, ns.kvPull, remoting.SlowIn(listPool))
}

// kvDigest answers a peer's CodeKVDigest.
func (ns *NameServer) kvDigest(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	if refused := ns.kvSyncRefused(conn, req); refused != nil {
		return refused
	}
	var h kvsync.DigestRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	return kvSyncAnswer(req, kvsync.AnswerDigest(ns.kv, h))
}

// kvPull answers a peer's CodeKVPull.
func (ns *NameServer) kvPull(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	if refused := ns.kvSyncRefused(conn, req); refused != nil {
		return refused
	}
	answer, err := kvsync.AnswerPull(ns.kv, req.Body)
	if err != nil {
		return systemError(req, err.Error())
	}
	return kvSyncAnswer(req, answer)
}

// kvSyncRefused answers NO_PERMISSION to a request not signed with the
// peer account, and logs it at most once a second; nil admits it.
func (ns *NameServer) kvSyncRefused(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	err := kvsync.Authorize(ns.peerAccount(), req)
	if err == nil {
		return nil
	}
	ns.warn(logrus.Fields{"remote": conn.RemoteAddr(), "code": req.Code}, err, "kv sync request refused")
	return remoting.NewResponse(req, remoting.NO_PERMISSION, "no permission: "+err.Error())
}

func kvSyncAnswer(req *remoting.Command, body any) *remoting.Command {
	encoded, err := json.Marshal(body)
	if err != nil {
		return systemError(req, "encode the kv sync answer: "+err.Error())
	}
	resp := success(req)
	resp.Body = encoded
	return resp
}

// startKVSync starts the KV exchanges with the peers, when there is a peer
// account to sign them with.
func (ns *NameServer) startKVSync() {
	log := ns.log.WithField("component", "kvsync")
	account := ns.peerAccount()
	if account.Empty() {
		if len(ns.peerList()) > 0 {
			log.Info("kv sync off: peerAccessKey and peerSecretKey are not set, so the KV config is not exchanged with the peers")
		}
		return
	}
	ns.obs.kvsync = kvsync.Start(kvsync.Config{Peers: ns.peerList, Store: ns.kv, Peer: account, TLS: ns.peerTLS(log), Log: log})
}

// kvStatus is the last KV exchange with addr; nil when there is none.
func (ns *NameServer) kvStatus(addr string) *peers.KVStatus {
	if ns.obs.kvsync == nil {
		return nil
	}
	st, ok := ns.obs.kvsync.Status(addr)
	if !ok {
		return nil
	}
	return &st
}

// peerStatuses is the peers panel: each peer's last route check with its
// last KV exchange.
func (ns *NameServer) peerStatuses() []peers.Status {
	list := ns.obs.peers.Statuses()
	for i := range list {
		list[i].KV = ns.kvStatus(list[i].Addr)
	}
	return list
}
