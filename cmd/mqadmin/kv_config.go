package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// getKvConfig reads the NameServer's KV store: one key with GET_KV_CONFIG
// (101), or a whole namespace with GET_KVLIST_BY_NAMESPACE (219). Java's
// mqadmin has no such command (only `updateOrderConf -m get` reads, and only
// ORDER_TOPIC_CONFIG), so name, options and output are ours.
var getKvConfigCommand = command{name: "getKvConfig", desc: "Get KV config of a key, or every key of a namespace.",
	className: "GetKvConfigCommand", read: true, run: runGetKvConfig, opts: []option{
		opt("s", "namespace", true, true, "the namespace"),
		opt("k", "key", true, false, "the key name (all keys of the namespace without it)"),
	}}

func runGetKvConfig(e *env) error {
	namespace := e.args.get("s")
	if e.args.has("k") {
		key := e.args.get("k")
		resp, err := e.client.invokeNameServer(remoting.GET_KV_CONFIG, map[string]string{"namespace": namespace, "key": key}, nil)
		if err != nil {
			return err
		}
		value := resp.ExtFields["value"]
		if e.json {
			return e.printJSON(map[string]string{"namespace": namespace, "key": key, "value": value})
		}
		_, err = fmt.Fprintln(e.out, value)
		return err
	}
	resp, err := e.client.invokeNameServer(remoting.GET_KVLIST_BY_NAMESPACE, map[string]string{"namespace": namespace}, nil)
	if err != nil {
		return err
	}
	table, err := route.DecodeKVTable(resp.Body)
	if err != nil {
		return fmt.Errorf("KV list of %s: %w", namespace, err)
	}
	if e.json {
		return e.printJSON(map[string]any{"namespace": namespace, "table": table.Table})
	}
	for _, key := range slices.Sorted(maps.Keys(table.Table)) {
		fmt.Fprintf(e.out, "%s=%s\n", key, table.Table[key])
	}
	return nil
}
