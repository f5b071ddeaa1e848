package config

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// MaxPeerIDLength bounds a peer's id: what controllerDLegerPeers lists and
// what an online add (code 5022) may name. DLedger ids are short ("n0").
const MaxPeerIDLength = 64

// ParsePeer reads one peer in controllerDLegerPeers' form, "id-host:port",
// its Raft address the port + controllerRaftPortOffset.
func (c *Config) ParsePeer(item string) (Peer, error) {
	id, addr, ok := strings.Cut(item, "-")
	if !ok || id == "" {
		return Peer{}, fmt.Errorf("%q is not id-host:port", item)
	}
	if len(id) > MaxPeerIDLength {
		return Peer{}, fmt.Errorf("%q: id longer than %d bytes", item, MaxPeerIDLength)
	}
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return Peer{}, fmt.Errorf("%q: %w", item, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 1 || port > 65535 {
		return Peer{}, fmt.Errorf("%q: port %q out of range", item, portText)
	}
	raftPort := port + c.RaftPortOffset
	if raftPort < 1 || raftPort > 65535 {
		return Peer{}, fmt.Errorf("%q: Raft port %d (port + controllerRaftPortOffset) out of range", item, raftPort)
	}
	return Peer{ID: id, Addr: addr, RaftAddr: net.JoinHostPort(host, strconv.Itoa(raftPort))}, nil
}

// PeerOfRaft is the peer whose Raft address is raftAddr: the listed one of
// that id and address when there is one (its Addr as configured), else
// raftAddr's host with the port - controllerRaftPortOffset (a peer added
// online; the offset is the same on every node). Under the JRaft keys the
// broker-facing address is not derived from the Raft one: an unlisted peer
// gets "" then.
func (c *Config) PeerOfRaft(id, raftAddr string, listed []Peer) Peer {
	for _, p := range listed {
		if p.ID == id && p.RaftAddr == raftAddr {
			return p
		}
	}
	p := Peer{ID: id, RaftAddr: raftAddr}
	if c.JRaftPeers() {
		return p
	}
	host, portText, err := net.SplitHostPort(raftAddr)
	if err != nil {
		return p
	}
	if port, err := strconv.Atoi(portText); err == nil {
		p.Addr = net.JoinHostPort(host, strconv.Itoa(port-c.RaftPortOffset))
	}
	return p
}

// String is the peer in controllerDLegerPeers' form.
func (p Peer) String() string { return p.ID + "-" + p.Addr }
