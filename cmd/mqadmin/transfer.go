package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// transferTimeout is how long transferControllerLeader waits for the
// leader's answer: beyond the controller's own 10 s bound of a transfer
// (controller/node.TransferTimeout), so the leader's error, not ours, is
// what a slow transfer prints.
const transferTimeout = 15 * time.Second

// transferCommands are ours (Java's mqadmin cannot move a controller's
// leadership): wire.CodeTransferControllerLeader.
var transferCommands = []command{
	{name: "transferControllerLeader", desc: "Move the controller leadership to another node and wait until it serves.",
		className: "TransferControllerLeaderSubCommand", read: true, run: runTransferControllerLeader, opts: []option{
			opt("a", "controllerAddress", true, true, "the address of a controller of the group"),
			opt("t", "targetId", true, false, "the node id (as in controllerDLegerPeers) to hand the lead to; default: the most up-to-date other node"),
		}},
}

func init() {
	commands = append(commands, transferCommands...)
}

// runTransferControllerLeader asks -a for the leader (1005), sends it 5021
// and, when the lead moved meanwhile (2007 naming a leader), asks that one
// once more.
func runTransferControllerLeader(e *env) error {
	leader, err := controllerLeader(e, e.args.get("a"))
	if err != nil {
		return err
	}
	ext := remoting.EncodeHeader(&wire.TransferLeaderRequest{TargetID: e.args.get("t")})
	started := time.Now()
	resp, err := e.client.invokeWithin(leader, wire.CodeTransferControllerLeader, ext, nil, transferTimeout)
	var refused *serverError
	if errors.As(err, &refused) && refused.code == controller.CodeNotLeader && resp.ExtFields[wire.LeaderAddressExt] != "" {
		leader = resp.ExtFields[wire.LeaderAddressExt]
		resp, err = e.client.invokeWithin(leader, wire.CodeTransferControllerLeader, ext, nil, transferTimeout)
	}
	if err != nil {
		return err
	}
	var res wire.TransferLeaderResponse
	if err := remoting.DecodeHeader(resp, &res); err != nil {
		return fmt.Errorf("transfer answer of %s: %w", leader, err)
	}
	if e.json {
		return e.printJSON(res)
	}
	_, err = fmt.Fprintf(e.out, "\n#OldLeaderId\t%s\n#OldLeaderAddress\t%s\n#NewLeaderId\t%s\n#NewLeaderAddress\t%s\n#WindowMillis\t%d\n#AnsweredMillis\t%d\n",
		res.OldLeaderID, res.OldLeaderAddress, res.NewLeaderID, res.NewLeaderAddress, res.WindowMillis, time.Since(started).Milliseconds())
	return err
}
