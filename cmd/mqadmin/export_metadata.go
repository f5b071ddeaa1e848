package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/broker/prettyjson"
	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// exportMetadata (Java tools/.../command/export/ExportMetadataCommand): the
// user topics and subscription groups of one broker (-b with -t or -g) or
// of every master of a cluster (-c, merged), written as fastjson's pretty
// JSON to a file under -f.
var exportMetadataCommand = command{name: "exportMetadata", desc: "Export metadata.", className: "ExportMetadataCommand",
	run: runExportMetadata, opts: []option{
		opt("c", "clusterName", true, false, "choose a cluster to export"),
		opt("b", "brokerAddr", true, false, "choose a broker to export"),
		opt("f", "filePath", true, false, "export metadata.json path | default /tmp/rocketmq/export"),
		opt("t", "topic", false, false, "only export topic metadata"),
		opt("g", "subscriptionGroup", false, false, "only export subscriptionGroup metadata"),
		opt("s", "specialTopic", false, false, "need retryTopic and dlqTopic"),
	}}

func init() { commands = append(commands, exportMetadataCommand) }

// exportFileMode is the mode of the files written.
const exportFileMode = 0o644

// predefinedGroupNames are Java's MixAll.PREDEFINE_GROUP_SET, which an
// export leaves out with the CID_RMQ_SYS_ groups.
var predefinedGroupNames = map[string]bool{
	"DEFAULT_CONSUMER": true, "DEFAULT_PRODUCER": true, "TOOLS_CONSUMER": true, "SCHEDULE_CONSUMER": true,
	"FILTERSRV_CONSUMER": true, "__MONITOR_CONSUMER": true, "CLIENT_INNER_PRODUCER": true, "SELF_TEST_P_GROUP": true,
	"SELF_TEST_C_GROUP": true, "CID_ONS-HTTP-PROXY": true, "CID_ONSAPI_PERMISSION": true, "CID_ONSAPI_OWNER": true,
	"CID_ONSAPI_PULL": true, "CID_RMQ_SYS_TRANS": true,
}

// permPriority is Java's PermName.PERM_PRIORITY: a valid perm is below it.
const permPriority = 8

func runExportMetadata(e *env) error {
	dir := defaultExportPath
	if e.args.has("f") {
		dir = e.args.get("f")
	}
	special := e.args.has("s")
	switch {
	case e.args.has("b"):
		addr := e.args.get("b")
		var path string
		var text []byte
		switch {
		case e.args.has("t"):
			w, err := userTopicConfigs(e, addr, special)
			if err != nil {
				return err
			}
			path, text = filepath.Join(dir, "topic.json"), route.EncodeTopicConfigSerializeWrapper(nil, &w)
		case e.args.has("g"):
			w, err := userSubscriptionGroups(e, addr)
			if err != nil {
				return err
			}
			path = filepath.Join(dir, "subscriptionGroup.json")
			if text, err = encodeGroupWrapper(w); err != nil {
				return err
			}
		default:
			// Java does nothing here; say what is missing instead.
			return errUsage
		}
		if err := writePrettyJSON(path, text); err != nil {
			return err
		}
		_, err := fmt.Fprintf(e.out, "export %s success", path)
		return err
	case e.args.has("c"):
		return exportCluster(e, dir, special)
	default:
		return errUsage
	}
}

// exportCluster merges every master's user topics and groups as Java does
// (queue counts and retry queue counts of a name on several brokers added
// up). A master that fails is named on errOut and left out.
func exportCluster(e *env, dir string, special bool) error {
	masters, err := clusterMasters(e, e.args.get("c"))
	if err != nil {
		return err
	}
	topics := map[string]route.TopicConfig{}
	groups := map[string]subgroup.Config{}
	var topicOrder, groupOrder []string
	failed := 0
	for _, addr := range masters {
		tw, err := userTopicConfigs(e, addr, special)
		var gw subgroup.Wrapper
		if err == nil {
			gw, err = userSubscriptionGroups(e, addr)
		}
		if err != nil {
			failed++
			fmt.Fprintf(e.errOut, "export from %s failed: %v\n", addr, err)
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(tw.TopicConfigTable)) {
			tc := tw.TopicConfigTable[name]
			if old, ok := topics[name]; ok {
				tc.WriteQueueNums += old.WriteQueueNums
				tc.ReadQueueNums += old.ReadQueueNums
			} else {
				topicOrder = append(topicOrder, name)
			}
			topics[name] = tc
		}
		for _, name := range slices.Sorted(maps.Keys(gw.Groups)) {
			c := gw.Groups[name]
			if old, ok := groups[name]; ok {
				c.RetryQueueNums += old.RetryQueueNums
			} else {
				groupOrder = append(groupOrder, name)
			}
			groups[name] = c
		}
	}
	if failed == len(masters) && failed > 0 {
		return fmt.Errorf("no master of cluster %s answered", e.args.get("c"))
	}
	members := map[string]func() ([]byte, error){
		"exportTime": func() ([]byte, error) { return []byte(strconv.FormatInt(e.now.UnixMilli(), 10)), nil },
		"topicConfigTable": func() ([]byte, error) {
			return javaOrderedObject(topicOrder, func(name string) ([]byte, error) { return jsonesc.Marshal(topicConfigJSONOf(topics[name])) })
		},
		"subscriptionGroupTable": func() ([]byte, error) {
			return javaOrderedObject(groupOrder, func(name string) ([]byte, error) { return groups[name].Encode() })
		},
	}
	keys, file := []string{"topicConfigTable", "subscriptionGroupTable"}, "metadata.json"
	switch {
	case e.args.has("t"):
		keys, file = []string{"topicConfigTable"}, "topic.json"
	case e.args.has("g"):
		keys, file = []string{"subscriptionGroupTable"}, "subscriptionGroup.json"
	}
	keys = append(keys, "exportTime")
	text, err := javaOrderedObject(keys, func(key string) ([]byte, error) { return members[key]() })
	if err != nil {
		return err
	}
	path := filepath.Join(dir, file)
	if err := writePrettyJSON(path, text); err != nil {
		return err
	}
	fmt.Fprintf(e.out, "export %s success\n", path)
	return partialResult(failed, len(masters), "brokers")
}

// javaOrderedObject writes a JSON object of a Java HashMap filled in the
// given order: its members in the map's hash order.
func javaOrderedObject(keys []string, value func(key string) ([]byte, error)) ([]byte, error) {
	b := []byte{'{'}
	for i, key := range javaHashOrderedKeys(keys) {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := jsonesc.Marshal(key)
		if err != nil {
			return nil, err
		}
		v, err := value(key)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// topicConfigJSON is a TopicConfig's members in fastjson's order.
type topicConfigJSON struct {
	Attributes      map[string]string `json:"attributes"`
	Order           bool              `json:"order"`
	Perm            int32             `json:"perm"`
	ReadQueueNums   int32             `json:"readQueueNums"`
	TopicFilterType string            `json:"topicFilterType"`
	TopicName       string            `json:"topicName"`
	TopicSysFlag    int32             `json:"topicSysFlag"`
	WriteQueueNums  int32             `json:"writeQueueNums"`
}

func topicConfigJSONOf(tc route.TopicConfig) topicConfigJSON {
	attrs := tc.Attributes
	if attrs == nil {
		attrs = map[string]string{}
	}
	return topicConfigJSON{Attributes: attrs, Order: tc.Order, Perm: tc.Perm, ReadQueueNums: tc.ReadQueueNums,
		TopicFilterType: tc.TopicFilterType, TopicName: tc.TopicName, TopicSysFlag: tc.TopicSysFlag, WriteQueueNums: tc.WriteQueueNums}
}

// userTopicConfigs is Java's getUserTopicConfig: the broker's topics less
// its system topics (GET_SYSTEM_TOPIC_LIST_FROM_BROKER and Java's
// TopicValidator rule), less retry and DLQ topics unless special, less
// those with an invalid perm.
func userTopicConfigs(e *env, addr string, special bool) (route.TopicConfigSerializeWrapper, error) {
	w, err := askDecoded(e, addr, remoting.GET_ALL_TOPIC_CONFIG, nil, "topic configs", route.DecodeTopicConfigSerializeWrapper)
	if err != nil {
		return route.TopicConfigSerializeWrapper{}, err
	}
	system, err := askDecoded(e, addr, remoting.GET_SYSTEM_TOPIC_LIST_FROM_BROKER, nil, "system topics", route.DecodeTopicList)
	if err != nil {
		return route.TopicConfigSerializeWrapper{}, err
	}
	maps.DeleteFunc(w.TopicConfigTable, func(name string, tc route.TopicConfig) bool {
		return slices.Contains(system.TopicList, tc.TopicName) || route.IsSystemTopic(tc.TopicName) ||
			(!special && (strings.HasPrefix(tc.TopicName, "%RETRY%") || strings.HasPrefix(tc.TopicName, "%DLQ%"))) ||
			tc.Perm < 0 || tc.Perm >= permPriority
	})
	return *w, nil
}

// userSubscriptionGroups is Java's getUserSubscriptionGroup: the broker's
// groups less the CID_RMQ_SYS_ and predefined ones.
func userSubscriptionGroups(e *env, addr string) (subgroup.Wrapper, error) {
	w, err := subscriptionGroups(e, addr)
	if err != nil {
		return w, err
	}
	maps.DeleteFunc(w.Groups, func(name string, _ subgroup.Config) bool {
		return strings.HasPrefix(name, "CID_RMQ_SYS_") || predefinedGroupNames[name]
	})
	return w, nil
}

// encodeGroupWrapper is Java's SubscriptionGroupWrapper: dataVersion and
// subscriptionGroupTable (no forbiddenTable).
func encodeGroupWrapper(w subgroup.Wrapper) ([]byte, error) {
	table, err := javaOrderedObject(slices.Sorted(maps.Keys(w.Groups)), func(name string) ([]byte, error) { return w.Groups[name].Encode() })
	if err != nil {
		return nil, err
	}
	b := append([]byte(`{"dataVersion":`), route.EncodeDataVersion(nil, w.DataVersion)...)
	return append(append(append(b, `,"subscriptionGroupTable":`...), table...), '}'), nil
}

// writePrettyJSON writes compact JSON laid out as fastjson's pretty format,
// creating the folder as Java's string2FileNotSafe does.
func writePrettyJSON(path string, compact []byte) error {
	text, err := prettyjson.Indent(compact)
	if err != nil {
		return fmt.Errorf("format %s: %w", path, err)
	}
	if err := atomicfile.Write(path, text, exportFileMode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
