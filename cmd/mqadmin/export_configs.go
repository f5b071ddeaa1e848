package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/gonamesrv/gonamesrv/broker/prettyjson"
	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
)

// exportConfigs (Java tools/.../command/export/ExportConfigsCommand): the
// main settings of every master of a cluster and the cluster's scale, written
// to <filePath>/configs.json.
var exportConfigsCommand = command{name: "exportConfigs", desc: "Export configs.",
	className: "ExportConfigsCommand", run: runExportConfigs, opts: []option{
		opt("c", "clusterName", true, true, "choose a cluster to export"),
		opt("f", "filePath", true, false, "export configs.json path | default /tmp/rocketmq/export"),
	}}

// defaultExportPath is Java's default -f.
const defaultExportPath = "/tmp/rocketmq/export"

// exportedBrokerKeys are the settings Java's exportConfigs keeps of each
// master (needBrokerProprties); the ones a broker does not have are left out.
var exportedBrokerKeys = []string{
	"brokerClusterName", "brokerId", "brokerName", "brokerRole", "fileReservedTime", "filterServerNums",
	"flushDiskType", "maxMessageSize", "messageDelayLevel", "msgTraceTopicName", "slaveReadEnable",
	"traceOn", "traceTopicEnable", "useTLS", "autoCreateTopicEnable", "autoCreateSubscriptionGroup",
}

// exportedConfigs is configs.json.
type exportedConfigs struct {
	BrokerConfigs map[string]map[string]string `json:"brokerConfigs"`
	ClusterScale  map[string]int               `json:"clusterScale"`
}

func runExportConfigs(e *env) error {
	dir := defaultExportPath
	if e.args.has("f") {
		dir = e.args.get("f")
	}
	sets, err := clusterSets(e, e.args.get("c"))
	if err != nil {
		return err
	}
	result := exportedConfigs{BrokerConfigs: map[string]map[string]string{}, ClusterScale: map[string]int{
		"namesrvSize": len(e.client.nameServers), "masterBrokerSize": 0, "slaveBrokerSize": 0,
	}}
	var masters []brokerTarget
	for _, set := range sets {
		if set[0].id == 0 {
			masters = append(masters, set[0])
			result.ClusterScale["masterBrokerSize"]++
			result.ClusterScale["slaveBrokerSize"] += len(set) - 1
		} else {
			// Java takes the set's NO_MASTER for a master and fails asking
			// it; here the set's slaves are counted and no config is kept.
			result.ClusterScale["slaveBrokerSize"] += len(set)
		}
	}
	askErr := askBrokers(e, masters, func(t brokerTarget) error {
		props, err := brokerConfig(e, t.addr)
		if err != nil {
			return err
		}
		kept := map[string]string{}
		for _, key := range exportedBrokerKeys {
			if value, ok := props[key]; ok {
				kept[key] = value
			}
		}
		result.BrokerConfigs[props["brokerName"]] = kept
		return nil
	})
	if len(masters) > 0 && len(result.BrokerConfigs) == 0 {
		return askErr // nothing to write
	}
	path := filepath.Join(dir, "configs.json")
	if err := writeExport(path, result); err != nil {
		return err
	}
	fmt.Fprintf(e.out, "export %s success", path)
	return askErr
}

// writeExport writes v as fastjson's pretty JSON (Java JSON.toJSONString(v, true)).
func writeExport(path string, v any) error {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	text, err := prettyjson.Indent(bytes.TrimSpace(compact.Bytes()))
	if err != nil {
		return err
	}
	if err := atomicfile.Write(path, text, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
