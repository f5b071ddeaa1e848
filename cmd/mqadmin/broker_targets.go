package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gonamesrv/gonamesrv/route"
)

// brokerTarget is one broker a broker command asks: its address and, when it
// came from the cluster table, its set and id (for headers and messages).
type brokerTarget struct {
	addr       string
	brokerName string
	id         int64
	masterAddr string // the set's master, "" when the set has none
}

func (t brokerTarget) String() string {
	if t.brokerName == "" {
		return t.addr
	}
	return fmt.Sprintf("%s (%s)", t.addr, t.brokerName)
}

// noMasterPlaceholder is Java's CommandUtil.NO_MASTER_PLACEHOLDER: the
// "master" of a set that has none.
const noMasterPlaceholder = "NO_MASTER"

// clusterSets returns the broker sets of a cluster, each its members sorted
// by id (the master, id 0, first), the sets sorted by name. An unknown
// cluster is an error (Java prints a line and exits 0).
func clusterSets(e *env, cluster string) ([][]brokerTarget, error) {
	info, err := e.client.clusterInfo()
	if err != nil {
		return nil, err
	}
	names, ok := info.ClusterAddrTable[cluster]
	if !ok {
		return nil, errClusterNotFound(cluster)
	}
	var sets [][]brokerTarget
	for _, name := range sortedCopy(names) {
		data, ok := info.BrokerAddrTable[name]
		if !ok {
			continue
		}
		master := data.BrokerAddrs[route.MasterID]
		var set []brokerTarget
		for _, id := range slices.Sorted(maps.Keys(data.BrokerAddrs)) {
			set = append(set, brokerTarget{addr: data.BrokerAddrs[id], brokerName: name, id: id, masterAddr: master})
		}
		sets = append(sets, set)
	}
	return sets, nil
}

// clusterBrokers is every member of a cluster (allMembers) or its masters only.
func clusterBrokers(e *env, cluster string, allMembers bool) ([]brokerTarget, error) {
	sets, err := clusterSets(e, cluster)
	if err != nil {
		return nil, err
	}
	var targets []brokerTarget
	for _, set := range sets {
		for _, t := range set {
			if allMembers || t.id == route.MasterID {
				targets = append(targets, t)
			}
		}
	}
	return targets, nil
}

// brokerOrCluster is the brokers of -b (one address) or -c (a cluster, its
// masters or all its members); neither is a usage error.
func brokerOrCluster(e *env, allMembers bool) ([]brokerTarget, error) {
	switch {
	case e.args.has("b"):
		return []brokerTarget{{addr: e.args.get("b")}}, nil
	case e.args.has("c"):
		return clusterBrokers(e, e.args.get("c"), allMembers)
	default:
		return nil, errUsage
	}
}

// askBrokers asks every target with askEach (peraddress.go): past
// failures, the good output kept, exit 2 when some of several failed. A
// cluster member's failure names its set too.
func askBrokers(e *env, targets []brokerTarget, ask func(t brokerTarget) error) error {
	byAddr := make(map[string]brokerTarget, len(targets))
	addrs := make([]string, 0, len(targets))
	for _, t := range targets {
		byAddr[t.addr] = t
		addrs = append(addrs, t.addr)
	}
	return askEach(e, addrs, "brokers", func(addr string) error {
		t := byAddr[addr]
		err := ask(t)
		if err != nil && t.brokerName != "" {
			return fmt.Errorf("broker %s failed: %w", t, err)
		}
		return err
	})
}

// readEach is a read command over brokers: fetch asks one, its answer is
// printed at once with printText, or, with -json, every answer at the end as
// one object by address (what answered, when some did).
func readEach[T any](e *env, targets []brokerTarget, fetch func(t brokerTarget) (T, error), printText func(t brokerTarget, v T)) error {
	answers := map[string]T{}
	err := askBrokers(e, targets, func(t brokerTarget) error {
		v, err := fetch(t)
		if err != nil {
			return err
		}
		answers[t.addr] = v
		if !e.json {
			printText(t, v)
		}
		return nil
	})
	if e.json && someAnswered(err) {
		return firstFailure(err, e.printJSON(answers))
	}
	return err
}
