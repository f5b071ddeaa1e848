package main

import (
	"fmt"
	"strings"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The controller's online membership (Go extension codes 5022 and 5023):
// each asks the given controller's 1005 for the leader, sends the change
// there and prints the voters after it, one `#Voter:` line each (-json:
// the answer as JSON).
var peerCommands = []command{
	{name: "addControllerPeer", desc: "Add a voter to the controller group (Go extension, code 5022).", className: "AddControllerPeerSubCommand",
		read: true, run: runAddControllerPeer, opts: []option{
			opt("a", "controllerAddress", true, true, "the address of a controller of the group"),
			opt("p", "peer", true, true, "the new peer as in controllerDLegerPeers: ID-HOST:PORT"),
		}},
	{name: "removeControllerPeer", desc: "Remove a voter from the controller group (Go extension, code 5023).", className: "RemoveControllerPeerSubCommand",
		read: true, run: runRemoveControllerPeer, opts: []option{
			opt("a", "controllerAddress", true, true, "the address of a controller of the group"),
			opt("i", "id", true, true, "the id of the peer to remove"),
		}},
}

func init() {
	commands = append(commands, peerCommands...)
}

func runAddControllerPeer(e *env) error {
	return changeControllerPeers(e, wire.CodeAddControllerPeer, &wire.AddControllerPeerRequest{Peer: e.args.get("p")})
}

func runRemoveControllerPeer(e *env) error {
	return changeControllerPeers(e, wire.CodeRemoveControllerPeer, &wire.RemoveControllerPeerRequest{ID: e.args.get("i")})
}

// changeControllerPeers sends one membership change to the leader and
// prints the voters it answers.
func changeControllerPeers(e *env, code int32, header any) error {
	leader, err := controllerLeader(e, e.args.get("a"))
	if err != nil {
		return err
	}
	resp, err := e.client.invoke(leader, code, remoting.EncodeHeader(header), nil)
	if err != nil {
		return err
	}
	peers, err := wire.DecodeControllerPeers(resp.Body)
	if err != nil {
		return fmt.Errorf("answer of %s: %w", leader, err)
	}
	if e.json {
		return e.printJSON(peers)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#Leader\t%s\n#ConfigurationIndex\t%d\n", leader, peers.Index)
	for _, v := range peers.Voters {
		fmt.Fprintf(&b, "#Voter:\t%s-%s\t%s\n", v.ID, v.Addr, v.RaftAddr)
	}
	_, err = fmt.Fprint(e.out, b.String())
	return err
}
