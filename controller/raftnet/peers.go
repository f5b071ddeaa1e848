package raftnet

import (
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/hostset"
)

// ResolveInterval is the least time between two resolutions of the peers'
// host names that a connection from an unknown address starts: a stranger's
// connections cannot turn into a flood of DNS queries.
const ResolveInterval = 5 * time.Second

// ResolveTimeout bounds one resolution of one host name.
const ResolveTimeout = 5 * time.Second

// newPeerSet is the addresses a Raft connection may come from: the listed
// peers' hosts, IP literals as they are, names as last resolved (at start,
// then in the background when a connection comes from an unknown address,
// which is refused: the peer's next dial is judged on the new addresses).
func newPeerSet(hosts []string, log *logrus.Entry) *hostset.Set {
	return hostset.New(hostset.Options{Hosts: hosts, Interval: ResolveInterval, Timeout: ResolveTimeout, Log: log,
		Unresolved: "controller peer's host does not resolve; Raft connections from it are refused until it does"})
}

// SetPeerHosts replaces the hosts a Raft connection may come from (the
// members changed online): a connection from a new peer's host is taken
// from now on, one from a removed peer's host refused unless another peer
// still lists it. Connections already accepted stay open; Raft drops a
// removed peer's itself. Names are resolved before it returns (each within
// ResolveTimeout), so call it off any hot path.
func (s *Stream) SetPeerHosts(hosts []string) {
	s.peers.Store(newPeerSet(hosts, s.peersLog))
}
