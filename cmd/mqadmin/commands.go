package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// orderTopicConfigNamespace is the KV namespace of order topic configs.
const orderTopicConfigNamespace = "ORDER_TOPIC_CONFIG"

// command is one mqadmin sub-command with Java's name, description and options.
type command struct {
	name      string
	desc      string
	className string // Java class, named in "<class> command failed"
	opts      []option
	read      bool // accepts -json
	run       func(e *env) error
}

// env is what a command runs with.
type env struct {
	args   parsedArgs
	client *adminClient
	out    io.Writer // results, one per server, as Java prints them
	errOut io.Writer // what failed, so a script reading out sees only results
	json   bool
	now    time.Time
}

// printJSON writes v as indented standard JSON.
func (e *env) printJSON(v any) error {
	text, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.out, "%s\n", text)
	return err
}

func opt(short, long string, hasArg, required bool, desc string) option {
	return option{short: short, long: long, hasArg: hasArg, required: required, desc: desc}
}

// commands lists the route commands in Java's help order.
var commands = []command{
	{name: "updateTopic", desc: "Update or create topic.", className: "UpdateTopicSubCommand", run: runUpdateTopic, opts: []option{
		opt("b", "brokerAddr", true, false, "create topic to which broker"),
		opt("c", "clusterName", true, false, "create topic to which cluster"),
		opt("a", "attributes", true, false, "attribute(+a=b,+c=d,-e)"),
		opt("t", "topic", true, true, "topic name"),
		opt("r", "readQueueNums", true, false, "set read queue nums"),
		opt("w", "writeQueueNums", true, false, "set write queue nums"),
		opt("p", "perm", true, false, "set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]"),
		opt("o", "order", true, false, "set topic's order(true|false)"),
		opt("u", "unit", true, false, "is unit topic (true|false)"),
		opt("s", "hasUnitSub", true, false, "has unit sub (true|false)"),
	}},
	{name: "deleteTopic", desc: "Delete topic from broker and NameServer.", className: "DeleteTopicSubCommand", run: runDeleteTopic, opts: []option{
		opt("t", "topic", true, true, "topic name"),
		opt("c", "clusterName", true, true, "delete topic from which cluster"),
	}},
	{name: "topicList", desc: "Fetch all topic list from name server.", className: "TopicListSubCommand", read: true, run: runTopicList, opts: []option{
		opt("c", "clusterModel", false, false, "clusterModel"),
	}},
	{name: "topicRoute", desc: "Examine topic route info.", className: "TopicRouteSubCommand", read: true, run: runTopicRoute, opts: []option{
		opt("t", "topic", true, true, "topic name"),
		opt("l", "list", false, false, "Use list format to print data"),
	}},
	{name: "topicClusterList", desc: "Get cluster info for topic.", className: "TopicClusterSubCommand", read: true, run: runTopicClusterList, opts: []option{
		opt("t", "topic", true, true, "topic name"),
	}},
	{name: "clusterList", desc: "List cluster infos.", className: "ClusterListSubCommand", read: true, run: runClusterList, opts: []option{
		opt("m", "moreStats", false, false, "Print more stats"),
		opt("i", "interval", true, false, "specify intervals numbers, it is in seconds"),
		opt("c", "clusterName", true, false, "which cluster"),
	}},
	{name: "wipeWritePerm", desc: "Wipe write perm of broker in all name server you defined in the -n param.", className: "WipeWritePermSubCommand",
		run: func(e *env) error {
			return runWritePerm(e, remoting.WIPE_WRITE_PERM_OF_BROKER, "wipe", "wipeTopicCount")
		},
		opts: []option{opt("b", "brokerName", true, true, "broker name")}},
	{name: "addWritePerm", desc: "Add write perm of broker in all name server you defined in the -n param.", className: "AddWritePermSubCommand",
		run:  func(e *env) error { return runWritePerm(e, remoting.ADD_WRITE_PERM_OF_BROKER, "add", "addTopicCount") },
		opts: []option{opt("b", "brokerName", true, true, "broker name")}},
	{name: "updateKvConfig", desc: "Create or update KV config.", className: "UpdateKvConfigCommand", run: runUpdateKvConfig, opts: []option{
		opt("s", "namespace", true, true, "set the namespace"),
		opt("k", "key", true, true, "set the key name"),
		opt("v", "value", true, true, "set the key value"),
	}},
	{name: "deleteKvConfig", desc: "Delete KV config.", className: "DeleteKvConfigCommand", run: runDeleteKvConfig, opts: []option{
		opt("s", "namespace", true, true, "set the namespace"),
		opt("k", "key", true, true, "set the key name"),
	}},
	{name: "getNamesrvConfig", desc: "Get configs of name server.", className: "GetNamesrvConfigCommand", read: true, run: runGetNamesrvConfig},
	{name: "updateNamesrvConfig", desc: "Update configs of name server.", className: "UpdateNamesrvConfigCommand", run: runUpdateNamesrvConfig, opts: []option{
		opt("k", "key", true, true, "config key"),
		opt("v", "value", true, true, "config value"),
	}},
	{name: "updateOrderConf", desc: "Create or update or delete order conf.", className: "UpdateOrderConfCommand", run: runUpdateOrderConf, opts: []option{
		opt("t", "topic", true, true, "topic name"),
		opt("v", "orderConf", true, false, "set order conf [eg. brokerName1:num;brokerName2:num]"),
		opt("m", "method", true, true, "option type [eg. put|get|delete"),
	}},
}

// findCommand matches a name case-insensitively, as mqadmin does.
func findCommand(name string) (*command, bool) {
	for i := range commands {
		if strings.EqualFold(commands[i].name, name) {
			return &commands[i], true
		}
	}
	return nil, false
}

// allOptions are a command's own options plus the common ones.
func (c *command) allOptions() []option {
	opts := append(append(slices.Clone(c.opts), commonOptions...), securityOptions...)
	if c.read {
		opts = append(opts, jsonOption)
	}
	return opts
}

func intOption(e *env, short string, dflt int32) (int32, error) {
	if !e.args.has(short) {
		return dflt, nil
	}
	n, err := strconv.ParseInt(e.args.get(short), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("option -%s: %q is not a number", short, e.args.get(short))
	}
	return int32(n), nil
}

func boolOption(e *env, short string) bool {
	v, _ := strconv.ParseBool(e.args.get(short))
	return v
}

func runUpdateTopic(e *env) error {
	tc := route.NewTopicConfig(e.args.get("t"))
	tc.Attributes = map[string]string{}
	var err error
	if tc.ReadQueueNums, err = intOption(e, "r", 8); err != nil {
		return err
	}
	if tc.WriteQueueNums, err = intOption(e, "w", 8); err != nil {
		return err
	}
	if tc.Perm, err = intOption(e, "p", route.DefaultPerm); err != nil {
		return err
	}
	attrText := e.args.get("a")
	if e.args.has("a") {
		if tc.Attributes, err = topicconfig.ParseAttributeModification(attrText); err != nil {
			return err
		}
	}
	if boolOption(e, "u") {
		tc.TopicSysFlag |= route.FlagUnit
	}
	if boolOption(e, "s") {
		tc.TopicSysFlag |= route.FlagUnitSub
	}
	tc.Order = boolOption(e, "o")
	sysFlag := tc.TopicSysFlag
	header := admin.CreateTopicRequestHeader{
		Topic: tc.TopicName, DefaultTopic: topicconfig.AutoCreateTopicKeyTopic,
		ReadQueueNums: tc.ReadQueueNums, WriteQueueNums: tc.WriteQueueNums, Perm: tc.Perm,
		TopicFilterType: tc.TopicFilterType, TopicSysFlag: &sysFlag, Order: tc.Order, Attributes: &attrText,
	}
	create := func(addr string) error {
		_, err := e.client.invoke(addr, remoting.UPDATE_AND_CREATE_TOPIC, remoting.EncodeHeader(header), nil)
		return err
	}
	var createErr, orderErr error // partial failures: the command goes on
	switch {
	case e.args.has("b"):
		addr := e.args.get("b")
		if err := create(addr); err != nil {
			return err
		}
		if tc.Order {
			info, err := e.client.clusterInfo()
			if err != nil {
				return err
			}
			orderConf := brokerNameOf(info, addr) + ":" + strconv.Itoa(int(tc.WriteQueueNums))
			if orderErr = putOrderConf(e, tc.TopicName, orderConf, false); !someAnswered(orderErr) {
				return orderErr
			}
			fmt.Fprintf(e.out, "set broker orderConf. isOrder=%t, orderConf=[%s]\n", tc.Order, orderConf)
		}
		fmt.Fprintf(e.out, "create topic to %s success.\n", addr)
	case e.args.has("c"):
		cluster := e.args.get("c")
		info, err := e.client.clusterInfo()
		if err != nil {
			return err
		}
		masters, ok := mastersOf(info, cluster)
		if !ok {
			return errClusterNotFound(cluster)
		}
		createErr = askEach(e, masters, "brokers", func(addr string) error {
			if err := create(addr); err != nil {
				return err
			}
			fmt.Fprintf(e.out, "create topic to %s success.\n", addr)
			return nil
		})
		if !someAnswered(createErr) {
			return createErr
		}
		if tc.Order {
			var parts []string
			for _, name := range sortedCopy(info.ClusterAddrTable[cluster]) {
				parts = append(parts, name+":"+strconv.Itoa(int(tc.WriteQueueNums)))
			}
			orderConf := strings.Join(parts, ";")
			if orderErr = putOrderConf(e, tc.TopicName, orderConf, true); !someAnswered(orderErr) {
				return orderErr
			}
			fmt.Fprintf(e.out, "set cluster orderConf. isOrder=%t, orderConf=[%s]\n", tc.Order, orderConf)
		}
	default:
		return errUsage
	}
	fmt.Fprintln(e.out, topicConfigText(tc))
	return firstFailure(createErr, orderErr)
}

// errClusterNotFound is an unknown -c cluster (Java CommandUtil's message).
func errClusterNotFound(cluster string) error {
	return fmt.Errorf("cluster %q not found: make sure the specified clusterName exists or the name server connected to is correct", cluster)
}

// errUsage makes main print the command's help, as Java does when neither
// of two alternative options is given.
var errUsage = errors.New("usage")

// brokerNameOf finds the group name of a broker address in the cluster info.
func brokerNameOf(info *route.ClusterInfo, addr string) string {
	for _, name := range slices.Sorted(maps.Keys(info.BrokerAddrTable)) {
		for _, a := range info.BrokerAddrTable[name].BrokerAddrs {
			if a == addr {
				return name
			}
		}
	}
	return ""
}

// putOrderConf stores an order conf in every NameServer. Without
// isCluster the broker's part is merged into the existing value (Java
// createOrUpdateOrderConf).
func putOrderConf(e *env, topic, orderConf string, isCluster bool) error {
	if !isCluster {
		resp, err := e.client.invokeNameServer(remoting.GET_KV_CONFIG, map[string]string{"namespace": orderTopicConfigNamespace, "key": topic}, nil)
		var refused *serverError
		if err != nil && !errors.As(err, &refused) {
			return err
		}
		if err == nil {
			orderConf = mergeOrderConf(resp.ExtFields["value"], orderConf)
		}
	}
	return forEachNameServer(e, func(addr string) error {
		_, err := e.client.invoke(addr, remoting.PUT_KV_CONFIG, map[string]string{"namespace": orderTopicConfigNamespace, "key": topic, "value": orderConf}, nil)
		return err
	})
}

// mergeOrderConf replaces or adds brokerName:num entries of update in old.
func mergeOrderConf(old, update string) string {
	entries := map[string]string{}
	var order []string
	for _, text := range []string{old, update} {
		for _, part := range strings.Split(text, ";") {
			name, num, ok := strings.Cut(part, ":")
			if !ok || name == "" {
				continue
			}
			if _, seen := entries[name]; !seen {
				order = append(order, name)
			}
			entries[name] = num
		}
	}
	parts := make([]string, 0, len(order))
	for _, name := range order {
		parts = append(parts, name+":"+entries[name])
	}
	return strings.Join(parts, ";")
}

// forEachNameServer runs f on every NameServer of -n with askEach: a
// failure does not stop the others.
func forEachNameServer(e *env, f func(addr string) error) error {
	if len(e.client.nameServers) == 0 {
		return errNoNameServer
	}
	return askEach(e, e.client.nameServers, "name servers", f)
}

func runDeleteTopic(e *env) error {
	topic, cluster := e.args.get("t"), e.args.get("c")
	info, err := e.client.clusterInfo()
	if err != nil {
		return err
	}
	masters, ok := mastersOf(info, cluster)
	if !ok {
		return errClusterNotFound(cluster)
	}
	if err := topicInCluster(e, info, topic, cluster); err != nil {
		return err
	}
	brokersErr := askEach(e, masters, "brokers", func(addr string) error {
		_, err := e.client.invoke(addr, remoting.DELETE_TOPIC_IN_BROKER, map[string]string{"topic": topic}, nil)
		return err
	})
	if !someAnswered(brokersErr) {
		return brokersErr
	}
	fmt.Fprintf(e.out, "delete topic [%s] from cluster [%s] success.\n", topic, cluster)
	nsErr := forEachNameServer(e, func(addr string) error {
		_, err := e.client.invoke(addr, remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"topic": topic, "clusterName": cluster}, nil)
		return err
	})
	if !someAnswered(nsErr) {
		return nsErr
	}
	fmt.Fprintf(e.out, "delete topic [%s] from NameServer success.\n", topic)
	return firstFailure(brokersErr, nsErr)
}

// topicInCluster checks, before deleteTopic deletes anything, that the
// NameServer's route of the topic names a broker of the cluster: Java
// prints success for a topic that does not exist, which hides a typo.
func topicInCluster(e *env, info *route.ClusterInfo, topic, cluster string) error {
	data, err := e.client.topicRoute(topic)
	var refused *serverError
	if errors.As(err, &refused) && refused.code == remoting.TOPIC_NOT_EXIST {
		return fmt.Errorf("topic [%s] not found: the name server has no route for it; nothing deleted", topic)
	}
	if err != nil {
		return err
	}
	members := info.ClusterAddrTable[cluster]
	for _, bd := range data.BrokerDatas {
		if slices.Contains(members, bd.BrokerName) {
			return nil
		}
	}
	return fmt.Errorf("topic [%s] is not in cluster [%s]: no broker of the cluster is in its route; nothing deleted", topic, cluster)
}

func runTopicList(e *env) error {
	list, err := nameServerTopics(e)
	if err != nil {
		return err
	}
	topics := sortedCopy(list.TopicList)
	if !e.args.has("c") {
		if e.json {
			return e.printJSON(map[string]any{"topicList": topics})
		}
		for _, topic := range topics {
			fmt.Fprintln(e.out, topic)
		}
		return nil
	}
	info, err := e.client.clusterInfo()
	if err != nil {
		return err
	}
	type row struct {
		Cluster string `json:"cluster"`
		Topic   string `json:"topic"`
	}
	var rows []row
	for _, topic := range topics {
		if strings.HasPrefix(topic, "%RETRY%") || strings.HasPrefix(topic, "%DLQ%") {
			continue
		}
		cluster := ""
		if data, err := e.client.topicRoute(topic); err == nil {
			if clusters := clusterOfTopic(info, data); len(clusters) > 0 {
				cluster = clusters[0]
			}
		}
		rows = append(rows, row{Cluster: cluster, Topic: topic})
	}
	if e.json {
		return e.printJSON(rows)
	}
	fmt.Fprint(e.out, topicListClusterHeader)
	for _, r := range rows {
		// A route-only cluster has no consumer groups to list.
		fmt.Fprint(e.out, topicListClusterRow(r.Cluster, r.Topic, ""))
	}
	return nil
}

func runTopicRoute(e *env) error {
	data, err := e.client.topicRoute(e.args.get("t"))
	if err != nil {
		return err
	}
	switch {
	case e.json:
		_, err = fmt.Fprintf(e.out, "%s\n", route.EncodeTopicRouteData(nil, data, true))
	case e.args.has("l"):
		_, err = fmt.Fprint(e.out, formatTopicRouteList(data))
	default:
		var text string
		if text, err = formatTopicRoutePretty(data); err == nil {
			_, err = fmt.Fprint(e.out, text)
		}
	}
	return err
}

func runTopicClusterList(e *env) error {
	info, err := e.client.clusterInfo()
	if err != nil {
		return err
	}
	data, err := e.client.topicRoute(e.args.get("t"))
	if err != nil {
		return err
	}
	clusters := clusterOfTopic(info, data)
	if e.json {
		return e.printJSON(map[string]any{"clusters": append([]string{}, clusters...)})
	}
	for _, cluster := range clusters {
		fmt.Fprintln(e.out, cluster)
	}
	return nil
}

// clusterBroker is one broker address of clusterList's JSON output.
type clusterBroker struct {
	Cluster    string            `json:"cluster"`
	BrokerName string            `json:"brokerName"`
	BrokerID   int64             `json:"brokerId"`
	Addr       string            `json:"addr"`
	Runtime    map[string]string `json:"runtime,omitempty"`
	Error      string            `json:"error,omitempty"`
}

func runClusterList(e *env) error {
	interval := time.Duration(0)
	if e.args.has("i") {
		seconds, err := strconv.Atoi(e.args.get("i"))
		if err != nil || seconds <= 0 {
			return fmt.Errorf("option -i: %q is not a positive number of seconds", e.args.get("i"))
		}
		interval = time.Duration(seconds) * time.Second
	}
	for {
		err := clusterListOnce(e)
		var partial *partialFailure
		if interval == 0 || (err != nil && !errors.As(err, &partial)) {
			return err
		}
		// -i goes on past brokers that did not answer this round: they
		// were named on errOut and may answer the next.
		time.Sleep(interval)
	}
}

// clusterListOnce prints the table once; brokers whose runtime info could
// not be had keep their row (empty figures), are named on errOut and make
// the result a partialFailure.
func clusterListOnce(e *env) error {
	info, err := e.client.clusterInfo()
	if err != nil {
		return err
	}
	clusters := slices.Sorted(maps.Keys(info.ClusterAddrTable))
	if e.args.has("c") {
		clusters = []string{e.args.get("c")}
	}
	var brokers []clusterBroker
	for _, cluster := range clusters {
		for _, name := range sortedCopy(info.ClusterAddrTable[cluster]) {
			bd, ok := info.BrokerAddrTable[name]
			if !ok {
				continue
			}
			for _, id := range slices.Sorted(maps.Keys(bd.BrokerAddrs)) {
				b := clusterBroker{Cluster: cluster, BrokerName: name, BrokerID: id, Addr: bd.BrokerAddrs[id]}
				resp, err := e.client.invoke(b.Addr, remoting.GET_BROKER_RUNTIME_INFO, nil, nil)
				if err == nil {
					table, decodeErr := route.DecodeKVTable(resp.Body)
					if decodeErr == nil {
						b.Runtime = table.Table
					}
					err = decodeErr
				}
				if err != nil {
					b.Error = err.Error()
				}
				brokers = append(brokers, b)
			}
		}
	}
	failed := 0
	for _, b := range brokers {
		if b.Error != "" {
			failed++
			fmt.Fprintf(e.errOut, "broker %s (%s) runtime info unavailable: %s\n", b.Addr, b.BrokerName, b.Error)
		}
	}
	if err := printClusterList(e, brokers); err != nil {
		return err
	}
	if failed > 0 {
		return &partialFailure{failed: failed, total: len(brokers), what: "brokers' runtime info"}
	}
	return nil
}

// printClusterList writes clusterList's table or JSON.
func printClusterList(e *env, brokers []clusterBroker) error {
	if e.json {
		return e.printJSON(brokers)
	}
	if e.args.has("m") {
		fmt.Fprint(e.out, clusterMoreHeader)
	} else {
		fmt.Fprint(e.out, clusterListHeader)
	}
	for _, b := range brokers {
		if e.args.has("m") {
			fmt.Fprint(e.out, clusterMoreRow(b.Cluster, b.BrokerName, b.Runtime))
		} else {
			fmt.Fprint(e.out, clusterListRow(b.Cluster, b.BrokerName, b.BrokerID, b.Addr, b.Runtime, e.now))
		}
	}
	return nil
}

// runWritePerm asks every NameServer in turn, as Java does, and goes on past
// one that fails: each success is a line on out, each failure (a NameServer
// that does not answer, or where no broker of that name is registered:
// Java's "OK, 0") a line on errOut.
func runWritePerm(e *env, code int32, verb, countField string) error {
	broker := e.args.get("b")
	return forEachNameServer(e, func(addr string) error {
		failed := func(err error) error {
			return fmt.Errorf("%s write perm of broker[%s] in name server[%s] Failed\n%w", verb, broker, addr, err)
		}
		if err := brokerRegisteredAt(e, addr, broker); err != nil {
			return failed(err)
		}
		resp, err := e.client.invoke(addr, code, map[string]string{"brokerName": broker}, nil)
		if err != nil {
			return failed(err)
		}
		count, _ := strconv.Atoi(resp.ExtFields[countField])
		fmt.Fprintf(e.out, "%s write perm of broker[%s] in name server[%s] OK, %d\n", verb, broker, addr, count)
		return nil
	})
}

// brokerRegisteredAt checks that the NameServer at addr has a broker set of
// that name in its cluster table.
func brokerRegisteredAt(e *env, addr, broker string) error {
	resp, err := e.client.invoke(addr, remoting.GET_BROKER_CLUSTER_INFO, nil, nil)
	if err != nil {
		return err
	}
	info, err := route.DecodeClusterInfo(resp.Body)
	if err != nil {
		return fmt.Errorf("decode cluster info from %s: %w", addr, err)
	}
	if _, ok := info.BrokerAddrTable[broker]; !ok {
		return fmt.Errorf("no broker named %s is registered in this name server", broker)
	}
	return nil
}

func runUpdateKvConfig(e *env) error {
	ext := map[string]string{"namespace": e.args.get("s"), "key": e.args.get("k"), "value": e.args.get("v")}
	return sendToAllThenPrint(e, remoting.PUT_KV_CONFIG, ext, "create or update kv config to namespace success.")
}

func runDeleteKvConfig(e *env) error {
	ext := map[string]string{"namespace": e.args.get("s"), "key": e.args.get("k")}
	return sendToAllThenPrint(e, remoting.DELETE_KV_CONFIG, ext, "delete kv config from namespace success.")
}

// sendToAllThenPrint sends one request to every NameServer in turn and
// prints success once all answered, or some did (the others named on
// errOut).
func sendToAllThenPrint(e *env, code int32, ext map[string]string, success string) error {
	err := forEachNameServer(e, func(addr string) error {
		_, err := e.client.invoke(addr, code, ext, nil)
		return err
	})
	if someAnswered(err) {
		fmt.Fprintln(e.out, success)
	}
	return err
}

// nameServerConfigs are the NameServers' settings commands.
var nameServerConfigs = configServers{what: "name servers", getCode: remoting.GET_NAMESRV_CONFIG, updateCode: remoting.UPDATE_NAMESRV_CONFIG,
	withPending: true, updated: "update name server config success!", atRestart: pendingAfter}

func runGetNamesrvConfig(e *env) error {
	if len(e.client.nameServers) == 0 {
		return errNoNameServer
	}
	return getConfigs(e, e.client.nameServers, nameServerConfigs)
}

func runUpdateNamesrvConfig(e *env) error {
	if len(e.client.nameServers) == 0 {
		return errNoNameServer
	}
	return updateConfigs(e, e.client.nameServers, nameServerConfigs)
}

func runUpdateOrderConf(e *env) error {
	topic, method := e.args.get("t"), e.args.get("m")
	switch method {
	case "get":
		resp, err := e.client.invokeNameServer(remoting.GET_KV_CONFIG, map[string]string{"namespace": orderTopicConfigNamespace, "key": topic}, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.out, "get orderConf success. topic=[%s], orderConf=[%s] ", topic, resp.ExtFields["value"])
	case "put":
		if !e.args.has("v") {
			return fmt.Errorf("please set orderConf with option -v")
		}
		orderConf := e.args.get("v")
		err := putOrderConf(e, topic, orderConf, true)
		if someAnswered(err) {
			fmt.Fprintf(e.out, "update orderConf success. topic=[%s], orderConf=[%s]", topic, orderConf)
		}
		return err
	case "delete":
		err := forEachNameServer(e, func(addr string) error {
			_, err := e.client.invoke(addr, remoting.DELETE_KV_CONFIG, map[string]string{"namespace": orderTopicConfigNamespace, "key": topic}, nil)
			return err
		})
		if someAnswered(err) {
			fmt.Fprintf(e.out, "delete orderConf success. topic=[%s]", topic)
		}
		return err
	default:
		return errUsage
	}
	return nil
}
