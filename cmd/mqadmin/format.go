package main

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/prettyjson"
	"github.com/gonamesrv/gonamesrv/route"
)

// sortedCopy returns the strings sorted, leaving the input alone.
func sortedCopy(values []string) []string {
	out := slices.Clone(values)
	slices.Sort(out)
	return out
}

// formatTopicRoutePretty is `topicRoute` without -l: Java's
// TopicRouteData.toJson(true), fastjson pretty format with bare numeric keys.
func formatTopicRoutePretty(data *route.TopicRouteData) (string, error) {
	text, err := prettyjson.Indent(route.EncodeTopicRouteData(nil, data, false))
	if err != nil {
		return "", err
	}
	return string(text) + "\n", nil
}

// topicRouteListFormat is TopicRouteSubCommand.FORMAT.
const topicRouteListFormat = "%-45s %-32s %-50s %-10s %-11s %-5s\n"

// formatTopicRouteList is `topicRoute -l`: one row per broker group sorted by
// name, a rule of 158 dashes, then the totals.
func formatTopicRouteList(data *route.TopicRouteData) string {
	var b strings.Builder
	queues := map[string]route.QueueData{}
	for _, q := range data.QueueDatas {
		queues[q.BrokerName] = q
	}
	brokers := slices.Clone(data.BrokerDatas)
	slices.SortFunc(brokers, func(x, y route.BrokerData) int { return strings.Compare(x.BrokerName, y.BrokerName) })
	fmt.Fprintf(&b, topicRouteListFormat, "#ClusterName", "#BrokerName", "#BrokerAddrs", "#ReadQueue", "#WriteQueue", "#Perm")
	var totalRead, totalWrite int32
	for _, bd := range brokers {
		q := queues[bd.BrokerName]
		totalRead += q.ReadQueueNums
		totalWrite += q.WriteQueueNums
		fmt.Fprintf(&b, topicRouteListFormat, bd.Cluster, bd.BrokerName, javaAddrMap(bd.BrokerAddrs),
			strconv.Itoa(int(q.ReadQueueNums)), strconv.Itoa(int(q.WriteQueueNums)), strconv.Itoa(int(q.Perm)))
	}
	b.WriteString(strings.Repeat("-", 158) + "\n")
	fmt.Fprintf(&b, topicRouteListFormat, "Total:", strconv.Itoa(len(queues)), "", strconv.Itoa(int(totalRead)), strconv.Itoa(int(totalWrite)), "")
	return b.String()
}

// clusterOfTopic is the cluster whose broker set holds the first BrokerData
// of the route (Java findTopicBelongToWhichCluster); "" if none.
func clusterOfTopic(info *route.ClusterInfo, data *route.TopicRouteData) []string {
	if len(data.BrokerDatas) == 0 {
		return nil
	}
	first := data.BrokerDatas[0].BrokerName
	var clusters []string
	for _, cluster := range slices.Sorted(maps.Keys(info.ClusterAddrTable)) {
		if slices.Contains(info.ClusterAddrTable[cluster], first) {
			clusters = append(clusters, cluster)
		}
	}
	return clusters
}

// topicListClusterRow formats one `topicList -c` row.
func topicListClusterRow(cluster, topic, group string) string {
	return fmt.Sprintf("%-20s  %-64s  %-64s\n", frontStringAtLeast(cluster, 20), frontStringAtLeast(topic, 64), frontStringAtLeast(group, 64))
}

// topicListClusterHeader is the `topicList -c` header.
var topicListClusterHeader = fmt.Sprintf("%-20s  %-48s  %-48s\n", "#Cluster Name", "#Topic", "#Consumer Group")

// brokerRuntime is what clusterList shows of one broker's runtime table; a
// nil table (broker unreachable) prints zeros and blanks, as Java does.
type brokerRuntime map[string]string

// clusterListHeader is ClusterListSubCommand's base header.
var clusterListHeader = fmt.Sprintf("%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %-11s  %-12s  %-8s  %-10s\n",
	"#Cluster Name", "#Broker Name", "#BID", "#Addr", "#Version", "#InTPS(LOAD)", "#OutTPS(LOAD)",
	"#Timer(Progress)", "#PCWait(ms)", "#Hour", "#SPACE", "#ACTIVATED")

// clusterListRow formats one broker address of `clusterList`.
func clusterListRow(cluster, brokerName string, id int64, addr string, rt brokerRuntime, now time.Time) string {
	get := func(key, dflt string) string {
		if v, ok := rt[key]; ok {
			return v
		}
		return dflt
	}
	firstNumber := func(key string) float64 {
		fields := strings.Fields(rt[key])
		if len(fields) == 0 {
			return 0
		}
		v, _ := strconv.ParseFloat(fields[0], 64)
		return v
	}
	integer := func(key string) int64 { v, _ := strconv.ParseInt(rt[key], 10, 64); return v }
	float := func(key string) float64 { v, _ := strconv.ParseFloat(rt[key], 32); return v }
	ack, ackWait := "", ""
	if rt != nil {
		ack, ackWait = get("ackThreadPoolQueueSize", "N"), get("ackThreadPoolQueueHeadWaitTimeMills", "N")
	}
	hour := 0.0
	if ts := integer("earliestMessageTimeStamp"); ts > 0 {
		hour = float64(now.UnixMilli()-ts) / 1000.0 / 60.0 / 60.0
	}
	space, _ := strconv.ParseFloat(rt["commitLogDiskRatio"], 64)
	active, _ := strconv.ParseBool(rt["brokerActive"])
	return fmt.Sprintf("%-22s  %-22s  %-4s  %-22s %-16s  %16s  %30s  %-22s  %11s  %-12s  %-8s  %10s\n",
		cluster, brokerName, strconv.FormatInt(id, 10), addr, rt["brokerVersionDesc"],
		fmt.Sprintf("%9.2f(%s,%sms)", firstNumber("putTps"), rt["sendThreadPoolQueueSize"], rt["sendThreadPoolQueueHeadWaitTimeMills"]),
		fmt.Sprintf("%9.2f(%s,%sms|%s,%sms)", firstNumber("getTransferredTps"), rt["pullThreadPoolQueueSize"], rt["pullThreadPoolQueueHeadWaitTimeMills"], ack, ackWait),
		fmt.Sprintf("%d-%d(%.1fw, %.1f, %.1f)", integer("timerReadBehind"), integer("timerOffsetBehind"), float64(integer("timerCongestNum"))/10000.0, float("timerEnqueueTps"), float("timerDequeueTps")),
		rt["pageCacheLockTimeMills"], fmt.Sprintf("%2.2f", hour), fmt.Sprintf("%.4f", space), strconv.FormatBool(active))
}

// clusterMoreHeader is the `clusterList -m` header.
var clusterMoreHeader = fmt.Sprintf("%-16s  %-32s %14s %14s %14s %14s\n",
	"#Cluster Name", "#Broker Name", "#InTotalYest", "#OutTotalYest", "#InTotalToday", "#OutTotalToday")

// clusterMoreRow formats one broker address of `clusterList -m`.
func clusterMoreRow(cluster, brokerName string, rt brokerRuntime) string {
	n := func(key string) int64 { v, _ := strconv.ParseInt(rt[key], 10, 64); return v }
	return fmt.Sprintf("%-16s  %-32s %14d %14d %14d %14d\n", cluster, brokerName,
		n("msgPutTotalTodayMorning")-n("msgPutTotalYesterdayMorning"),
		n("msgGetTotalTodayMorning")-n("msgGetTotalYesterdayMorning"),
		n("msgPutTotalTodayNow")-n("msgPutTotalTodayMorning"),
		n("msgGetTotalTodayNow")-n("msgGetTotalTodayMorning"))
}

// formatNamesrvConfig is one server's block of `getNamesrvConfig`; keys are
// sorted (Java prints Properties hash order).
func formatNamesrvConfig(addr string, props map[string]string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "============%s============\n", addr)
	for _, key := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "%-50s=  %s\n", key, props[key])
	}
	return b.String()
}

// pendingRestartPrefix starts the comment lines a GET_NAMESRV_CONFIG body
// ends with for the keys stored but applying only at the next start (the
// server's config.PendingPrefix); parseProperties skips them as comments.
const pendingRestartPrefix = "# pending restart: "

// formatPendingRestart is the pending-restart lines of a GET_NAMESRV_CONFIG
// body, printed after its keys: "pending restart: KEY=STORED (running: VALUE)".
func formatPendingRestart(body []byte) string {
	var b strings.Builder
	for _, line := range strings.Split(string(body), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), pendingRestartPrefix); ok {
			b.WriteString("pending restart: " + rest + "\n")
		}
	}
	return b.String()
}

// parseProperties reads the `key=value` lines of a GET_NAMESRV_CONFIG body.
func parseProperties(body []byte) map[string]string {
	props := map[string]string{}
	for _, line := range strings.Split(string(body), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		key, value, _ := strings.Cut(line, "=")
		props[key] = value
	}
	return props
}
