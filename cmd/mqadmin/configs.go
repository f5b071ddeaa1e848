package main

import (
	"errors"
	"fmt"
	"strings"
)

// The get and update of a server's settings, shared by the NameServer's
// (getNamesrvConfig, updateNamesrvConfig) and the controller's
// (getControllerConfig, updateControllerConfig): each asks every address of
// its list with askEach, so a dead or refusing server does not hide the
// others' answers.

// configServers is one kind of server whose settings mqadmin reads and
// writes.
type configServers struct {
	what        string // plural, for askEach
	getCode     int32
	updateCode  int32
	withPending bool   // print the "pending restart" lines of the GET answer (NameServers)
	updated     string // Java's success line, before the list of servers
	// atRestart says whether a changed key waits for a restart.
	atRestart func(key string, after configView) bool
}

// errNoAddress is an address list (-a) with no address in it.
var errNoAddress = errors.New("no address given")

// getConfigs prints every server's settings (JSON: address -> settings),
// those that answered.
func getConfigs(e *env, addrs []string, servers configServers) error {
	if len(addrs) == 0 {
		return errNoAddress
	}
	configs := map[string]map[string]string{}
	pending := map[string]string{}
	err := askEach(e, addrs, servers.what, func(addr string) error {
		resp, err := e.client.invoke(addr, servers.getCode, nil, nil)
		if err != nil {
			return err
		}
		configs[addr] = parseProperties(resp.Body)
		if servers.withPending {
			pending[addr] = formatPendingRestart(resp.Body)
		}
		return nil
	})
	if !someAnswered(err) {
		return err
	}
	if e.json {
		return firstFailure(err, e.printJSON(configs))
	}
	for _, addr := range addrs {
		if config, ok := configs[addr]; ok {
			fmt.Fprint(e.out, formatNamesrvConfig(addr, config), pending[addr])
		}
	}
	return err
}

// updateConfigs sends key=value to every server, reading its settings
// before and after to say what changed; Java's success line lists the
// servers that took it, then one summary line each.
func updateConfigs(e *env, addrs []string, servers configServers) error {
	if len(addrs) == 0 {
		return errNoAddress
	}
	key, value := e.args.get("k"), e.args.get("v")
	read := func(addr string) (configView, error) {
		resp, err := e.client.invoke(addr, servers.getCode, nil, nil)
		if err != nil {
			return configView{}, err
		}
		return parseConfigView(resp.Body), nil
	}
	var took []string
	summaries := map[string]string{}
	err := askEach(e, addrs, servers.what, func(addr string) error {
		before, beforeErr := read(addr)
		if _, err := e.client.invoke(addr, servers.updateCode, nil, []byte(key+"="+value+"\n")); err != nil {
			return err
		}
		took = append(took, addr)
		summaries[addr] = ""
		if after, err := read(addr); beforeErr == nil && err == nil {
			summaries[addr] = updateSummary(before, after, servers.atRestart)
		}
		return nil
	})
	if !someAnswered(err) {
		return err
	}
	fmt.Fprintf(e.out, "%s[%s]\n%s : %s\n", servers.updated, strings.Join(took, ", "), key, value)
	printUpdateSummaries(e.out, took, summaries)
	return err
}
