package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// brokerStatus (Java tools/.../command/broker/BrokerStatusSubCommand):
// GET_BROKER_RUNTIME_INFO (28) of one broker, or of every member of a cluster.
var brokerStatusCommand = command{name: "brokerStatus", desc: "Fetch broker runtime status data.",
	className: "BrokerStatusSubCommand", read: true, run: runBrokerStatus, opts: []option{
		opt("b", "brokerAddr", true, false, "Broker address"),
		opt("c", "clusterName", true, false, "which cluster"),
	}}

func runBrokerStatus(e *env) error {
	targets, err := brokerOrCluster(e, true)
	if err != nil {
		return err
	}
	withAddr := !e.args.has("b")
	return readEach(e, targets, func(t brokerTarget) (map[string]string, error) {
		table, err := askDecoded(e, t.addr, remoting.GET_BROKER_RUNTIME_INFO, nil, "runtime info", route.DecodeKVTable)
		if err != nil {
			return nil, err
		}
		return table.Table, nil
	}, func(t brokerTarget, table map[string]string) { printBrokerStatus(e, t.addr, table, withAddr) })
}

// printBrokerStatus prints the table sorted by key, each line led by the
// broker's address when several brokers are asked (-c), as Java does.
func printBrokerStatus(e *env, addr string, table map[string]string, withAddr bool) {
	for _, key := range slices.Sorted(maps.Keys(table)) {
		if withAddr {
			fmt.Fprintf(e.out, "%-24s %-32s: %s\n", addr, key, table[key])
		} else {
			fmt.Fprintf(e.out, "%-32s: %s\n", key, table[key])
		}
	}
}
