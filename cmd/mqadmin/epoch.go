package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/route"
)

// getBrokerEpoch (Java tools/.../command/broker/GetBrokerEpochSubCommand):
// it asks each broker of a set or a cluster, found through the NameServer,
// for its epoch cache (GET_BROKER_EPOCH_CACHE 1007).
var epochCommand = command{name: "getBrokerEpoch", desc: "Fetch broker epoch entries.", className: "GetBrokerEpochSubCommand",
	read: true, run: runGetBrokerEpoch, opts: []option{
		opt("c", "clusterName", true, false, "which cluster"),
		opt("b", "brokerName", true, false, "which broker to fetch"),
		opt("i", "interval", true, false, "the interval(second) of get info"),
	}}

func init() { commands = append(commands, epochCommand) }

func runGetBrokerEpoch(e *env) error {
	if !e.args.has("b") && !e.args.has("c") {
		return errUsage
	}
	return repeatEvery(e, func() error { return getBrokerEpochOnce(e) })
}

func getBrokerEpochOnce(e *env) error {
	info, err := e.client.clusterInfo()
	if err != nil {
		return err
	}
	var addrs []string
	if e.args.has("b") {
		name := e.args.get("b")
		if addrs = setAddresses(info, name); len(addrs) == 0 {
			return fmt.Errorf("broker set %s not found: the name server's cluster table has no broker of that name", name)
		}
	} else {
		names, ok := info.ClusterAddrTable[e.args.get("c")]
		if !ok {
			// Java prints "[error] ..." on stdout, exit 0, and carries on
			// with no broker.
			return errClusterNotFound(e.args.get("c"))
		}
		for _, name := range names {
			addrs = append(addrs, setAddresses(info, name)...)
		}
		slices.Sort(addrs)
		addrs = slices.Compact(addrs)
	}
	caches := map[string]*wire.EpochEntryCache{}
	asked := askEach(e, addrs, "brokers", func(addr string) error {
		cache, err := askDecoded(e, addr, wire.CodeGetBrokerEpochCache, nil, "epoch cache", wire.DecodeEpochEntryCache)
		if err != nil {
			return err
		}
		caches[addr] = cache
		return nil
	})
	if !someAnswered(asked) {
		return asked
	}
	if e.json {
		return firstFailure(asked, e.printJSON(caches))
	}
	var b strings.Builder
	for _, addr := range addrs {
		if cache, ok := caches[addr]; ok {
			writeEpochCache(&b, addr, cache)
		}
	}
	_, err = fmt.Fprint(e.out, b.String())
	return firstFailure(asked, err)
}

// setAddresses is every member's address of one broker set, sorted (Java
// iterates a HashSet: an order of its own).
func setAddresses(info *route.ClusterInfo, name string) []string {
	data, ok := info.BrokerAddrTable[name]
	if !ok {
		return nil
	}
	return slices.Sorted(maps.Values(data.BrokerAddrs))
}

// writeEpochCache prints one broker as Java does: the last epoch ends at the
// broker's max offset.
func writeEpochCache(b *strings.Builder, addr string, c *wire.EpochEntryCache) {
	fmt.Fprintf(b, "\n#clusterName\t%s\n#brokerName\t%s\n#brokerAddr\t%s\n#brokerId\t%d", javaNull(c.ClusterName), javaNull(c.BrokerName), addr, c.BrokerID)
	for i, entry := range c.EpochList {
		if i == len(c.EpochList)-1 {
			entry.EndOffset = c.MaxOffset
		}
		fmt.Fprintf(b, "\n#Epoch: %s", entry)
	}
	b.WriteString("\n")
}
