package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// getBrokerConfig (Java tools/.../command/broker/GetBrokerConfigCommand):
// GET_BROKER_CONFIG (26) to one broker or to every member of a cluster.
var getBrokerConfigCommand = command{name: "getBrokerConfig", desc: "Get broker config by cluster or special broker.",
	className: "GetBrokerConfigCommand", read: true, run: runGetBrokerConfig, opts: []option{
		opt("b", "brokerAddr", true, false, "get which broker"),
		opt("c", "clusterName", true, false, "get which cluster"),
	}}

// updateBrokerConfig (Java UpdateBrokerConfigSubCommand): UPDATE_BROKER_CONFIG
// (25) with one key to a broker, or to a cluster's masters (-a: every member).
var updateBrokerConfigCommand = command{name: "updateBrokerConfig", desc: "Update broker's config.",
	className: "UpdateBrokerConfigSubCommand", run: runUpdateBrokerConfig, opts: []option{
		opt("b", "brokerAddr", true, false, "update which broker"),
		opt("c", "clusterName", true, false, "update which cluster"),
		opt("a", "updateAllBroker", true, false, "update all brokers include slave"),
		opt("k", "key", true, true, "config key"),
		opt("v", "value", true, true, "config value"),
	}}

// brokerConfig asks one broker for its settings.
func brokerConfig(e *env, addr string) (map[string]string, error) {
	return askDecoded(e, addr, remoting.GET_BROKER_CONFIG, nil, "config", javaprops.Parse)
}

func runGetBrokerConfig(e *env) error {
	var targets []brokerTarget
	switch {
	case e.args.has("b"):
		targets = []brokerTarget{{addr: e.args.get("b")}}
	case e.args.has("c"):
		sets, err := clusterSets(e, e.args.get("c"))
		if err != nil {
			return err
		}
		for _, set := range sets {
			targets = append(targets, set...)
		}
	default:
		return errUsage
	}
	noMasterShown := false
	return readEach(e, targets, func(t brokerTarget) (map[string]string, error) { return brokerConfig(e, t.addr) },
		func(t brokerTarget, props map[string]string) {
			header := brokerConfigHeader(t)
			if t.brokerName != "" && t.masterAddr == "" && !noMasterShown {
				// Java lists the sets without master under one NO_MASTER entry.
				noMasterShown = true
				header = fmt.Sprintf("============Master: %s============\n", noMasterPlaceholder) + header
			}
			fmt.Fprint(e.out, header, formatBrokerConfig(props))
		})
}

// brokerConfigHeader is the line Java prints before a broker: its address
// (-b), or as a member of a cluster a master's address, or a slave's with its
// master's (NO_MASTER when none).
func brokerConfigHeader(t brokerTarget) string {
	if t.brokerName == "" {
		return fmt.Sprintf("============%s============\n", t.addr)
	}
	if t.id == 0 {
		return fmt.Sprintf("============Master: %s============\n", t.addr)
	}
	master := t.masterAddr
	if master == "" {
		master = noMasterPlaceholder
	}
	return fmt.Sprintf("============My Master: %s=====Slave: %s============\n", master, t.addr)
}

// formatBrokerConfig is one broker's settings as Java prints them, sorted
// (Java prints a Properties' hash order), then an empty line.
func formatBrokerConfig(props map[string]string) string {
	var b strings.Builder
	for _, key := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "%-50s=  %s\n", key, props[key])
	}
	b.WriteString("\n")
	return b.String()
}

func runUpdateBrokerConfig(e *env) error {
	targets, err := brokerOrCluster(e, e.args.has("a"))
	if err != nil {
		return err
	}
	key, value := e.args.get("k"), e.args.get("v")
	body := javaprops.FormatFile(map[string]string{key: value})
	return askBrokers(e, targets, func(t brokerTarget) error {
		if _, err := e.client.invoke(t.addr, remoting.UPDATE_BROKER_CONFIG, nil, body); err != nil {
			return err
		}
		if err := checkBrokerConfigApplied(e, t.addr, key, value); err != nil {
			return err
		}
		fmt.Fprintf(e.out, "update broker config success, %s\n", t.addr)
		return nil
	})
}

// checkBrokerConfigApplied reads the settings back: a Java broker answers
// success for a key it does not have and changes nothing, which a script
// must not take for a change.
func checkBrokerConfigApplied(e *env, addr, key, value string) error {
	props, err := brokerConfig(e, addr)
	if err != nil {
		return fmt.Errorf("updated, but reading the config back failed: %w", err)
	}
	got, ok := props[key]
	switch {
	case !ok:
		hint := ""
		if closest := javaprops.Closest(key, slices.Sorted(maps.Keys(props))); closest != "" {
			hint = " (closest key it has: " + closest + ")"
		}
		return fmt.Errorf("the broker answered success but has no config key %s%s: nothing changed", key, hint)
	case !strings.EqualFold(got, value):
		return fmt.Errorf("the broker answered success but its config shows %s=%s, not %s", key, got, value)
	}
	return nil
}
