package namesrv

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/warmstart"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// warmState is what the warm start keeps.
type warmState struct {
	// peerKeys are peerAccessKey and peerSecretKey as at start (protected
	// keys): the only signature the peer route state is answered to.
	peerKeys aclsign.Credentials
	// fromPeers says a peer's whole state was installed at start: /readyz
	// skips the warm-up (observe.go).
	fromPeers bool
	// keeper re-polls the peers while borrowed entries remain.
	keeper *warmstart.Keeper
}

func newWarmState(cfg *config.Config) warmState {
	return warmState{peerKeys: aclsign.Credentials{AccessKey: cfg.PeerAccessKey, SecretKey: cfg.PeerSecretKey}}
}

// warmStart asks the peers of peerNamesrvAddrs for their route state and
// installs it as borrowed entries, before the server listens: the first
// route query a restarted server answers is then its peers' answer, not
// TOPIC_NOT_EXIST. It waits at most peerWarmStartTimeoutMillis; with no
// peer answering the server starts empty, as without peers. It returns
// whether a peer's whole state is in.
func (ns *NameServer) warmStart(cfg *config.Config) bool {
	peers := config.SplitAddrList(cfg.PeerNamesrvAddrs)
	timeout := time.Duration(cfg.PeerWarmStartTimeoutMillis) * time.Millisecond
	if len(peers) == 0 || timeout <= 0 {
		return false
	}
	log := ns.log.WithField("component", "warmstart")
	dialer := ns.warmDialer(cfg, log)
	if dialer.Sign == nil {
		log.Warn("warm start skipped: peerAccessKey and peerSecretKey are not set, and peers answer only signed requests")
		return false
	}
	res := warmstart.Start{
		Dialer:   dialer,
		Peers:    peers,
		Routes:   ns.routes,
		Deadline: ns.clock.Now().Add(time.Duration(cfg.BrokerChannelExpiredTime) * time.Millisecond),
		Now:      ns.clock.Now,
		Timeout:  timeout,
	}.Run(context.Background())
	fields := logrus.Fields{"peers": peers, "answered": res.Answered, "brokers": res.Counts.Brokers, "topics": res.Counts.Topics,
		"queueDatas": res.Counts.QueueDatas, "elections": res.Counts.Elections, "took": res.Took.Round(time.Millisecond).String()}
	if len(res.Answered) == 0 {
		log.WithFields(fields).Warn("warm start: no peer answered within peerWarmStartTimeoutMillis; starting with the route state installed so far")
		return false
	}
	log.WithFields(fields).Info("warm start: the peers' route state is borrowed until the brokers register here")
	return true
}

// warmDialer is how the peers are asked: signed with peerAccessKey and
// peerSecretKey, over TLS as the peer checks are.
func (ns *NameServer) warmDialer(cfg *config.Config, log *logrus.Entry) warmstart.Dialer {
	return warmstart.Dialer{
		Sign: aclsign.Signer(aclsign.Credentials{AccessKey: cfg.PeerAccessKey, SecretKey: cfg.PeerSecretKey}),
		TLS:  ns.peerTLS(log),
		Log:  log,
	}
}

// startWarmKeeper starts the re-polls of the peers the borrowed entries
// came from, when any are borrowed.
func (ns *NameServer) startWarmKeeper(cfg *config.Config) {
	if len(ns.routes.BorrowedSources()) == 0 {
		return
	}
	ns.warm.keeper = warmstart.StartKeeper(ns.warmDialer(cfg, ns.log.WithField("component", "warmstart")), ns.routes, 0)
}

// peerRouteState answers a peer's warm-start request (warmstart.Code):
// refused, code 16, unless signed with this server's own peerAccessKey
// and peerSecretKey (the group's peers share them); otherwise one page.
func (ns *NameServer) peerRouteState(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	if reason := ns.peerSigned(req); reason != "" {
		ns.warnings.Warn(ns.log, logrus.Fields{"remoteAddr": conn.RemoteAddr(), "code": warmstart.Code}, nil,
			"peer route state refused: "+reason)
		return remoting.NewResponse(req, remoting.NO_PERMISSION, "no permission: "+reason)
	}
	var answer any
	switch req.ExtFields["part"] {
	case warmstart.PartBrokers:
		brokers, elections := ns.routes.PeerBrokers(ns.clock.Now())
		answer = warmstart.BrokersAnswer{Brokers: brokers, Elections: elections}
	case warmstart.PartTopics:
		shard, err := strconv.Atoi(req.ExtFields["shard"])
		if err != nil || shard < 0 {
			return systemError(req, "peer route state: shard is not a number of 0 or more")
		}
		page, next, done := ns.routes.PeerTopics(route.TopicCursor{Shard: shard, After: req.ExtFields["after"]}, warmstart.PageBytes)
		answer = warmstart.TopicsAnswer{Page: page, Next: next, Done: done}
	default:
		return systemError(req, fmt.Sprintf("peer route state: part is %q or %q", warmstart.PartBrokers, warmstart.PartTopics))
	}
	body, err := json.Marshal(answer)
	if err != nil {
		return systemError(req, "peer route state: "+err.Error())
	}
	resp := success(req)
	resp.Body = body
	return resp
}

// peerSigned says why req is not a peer's ("" when it is): signed by the
// account of peerAccessKey with peerSecretKey, and without a body.
func (ns *NameServer) peerSigned(req *remoting.Command) string {
	if len(req.Body) > 0 {
		return "a peer route state request takes no body"
	}
	if ns.warm.peerKeys.Empty() {
		return "this NameServer answers its route state only to peers signing with its peerAccessKey, which is not set"
	}
	key := req.ExtFields[aclsign.AccessKey]
	if subtle.ConstantTimeCompare([]byte(key), []byte(ns.warm.peerKeys.AccessKey)) != 1 ||
		!aclsign.Verify(req.ExtFields, req.Body, ns.warm.peerKeys.SecretKey) {
		return "the peer route state is answered only to requests signed with this NameServer's peerAccessKey and peerSecretKey"
	}
	return ""
}
