package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/internal/mqversion"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// consumerProgress (Java tools/.../command/consumer/ConsumerProgressSubCommand):
// with -g, a group's progress per queue (GET_CONSUME_STATS to one broker of
// every group of the route of %RETRY%<group>, else of the topic); without,
// one line per group that has a retry topic.
var consumerProgressCommand = command{name: "consumerProgress", desc: "Query consumer's progress, speed.", className: "ConsumerProgressSubCommand",
	read: true, run: runConsumerProgress, opts: []option{
		opt("g", "groupName", true, false, "consumer group name"),
		opt("t", "topicName", true, false, "topic name"),
		opt("s", "showClientIP", true, false, "Show Client IP per Queue"),
		opt("c", "cluster", true, false, "Cluster name or lmq parent topic, lmq is used to find the route."),
	}}

func init() { commands = append(commands, consumerProgressCommand) }

// Java's names and prefixes around consumer groups.
const (
	retryTopicPrefix    = "%RETRY%"
	lmqTopicPrefix      = "%LMQ%"
	wheelTimerTopic     = "rmq_sys_wheel_timer"
	broadcastingModel   = "BROADCASTING"
	consumeActivelyType = "CONSUME_ACTIVELY"
)

// consumerNotOnline and broadcastNoStats are Java's errors for a group
// whose stats are empty (codes CONSUMER_NOT_ONLINE and BROADCAST_CONSUMPTION).
var (
	errConsumerNotOnline = errors.New("CODE: 206  DESC: Not found the consumer group consume stats, because return offset table is empty, maybe the consumer not online")
	errBroadcastNoStats  = errors.New("CODE: 213  DESC: Not found the consumer group consume stats, because return offset table is empty, the consumer is under the broadcast mode")
)

// consumerConnection is what GET_CONSUMER_CONNECTION_LIST says of a group
// (Java ConsumerConnection) that this command reads.
type consumerConnection struct {
	ConnectionSet []struct {
		ClientID string `json:"clientId"`
		Version  int32  `json:"version"`
	} `json:"connectionSet"`
	ConsumeType  string `json:"consumeType"`
	MessageModel string `json:"messageModel"`
}

func runConsumerProgress(e *env) error {
	if e.args.has("g") {
		return groupProgress(e, e.args.get("g"))
	}
	return allGroupsProgress(e)
}

// groupProgress is -g: Java's examineConsumeStats, then the table.
func groupProgress(e *env, group string) error {
	topic := e.args.get("t")
	routeTopics := []string{retryTopicPrefix + group}
	if topic != "" {
		routeTopics = append(routeTopics, topic, retryTopicPrefix+group+"_"+topic)
		if cluster := e.args.get("c"); cluster != "" && (strings.HasPrefix(topic, lmqTopicPrefix) || topic == wheelTimerTopic) {
			routeTopics = append(routeTopics, cluster)
		}
	}
	var data *route.TopicRouteData
	var err error
	for _, t := range routeTopics {
		if data, err = e.client.topicRoute(t); err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	stats := admin.ConsumeStats{OffsetTable: map[admin.MessageQueue]admin.OffsetWrapper{}}
	failed, asked := forEachRouteBroker(e, data, func(addr string) error {
		s, err := consumeStats(e, addr, group, topic)
		if err == nil {
			maps.Copy(stats.OffsetTable, s.OffsetTable)
			stats.ConsumeTps += s.ConsumeTps
		}
		return err
	})
	if failed == asked && asked > 0 {
		return fmt.Errorf("no broker of group %s answered GET_CONSUME_STATS", group)
	}
	if len(stats.OffsetTable) == 0 && failed == 0 {
		cc, err := groupConnection(e, group)
		if err != nil {
			return errConsumerNotOnline
		}
		if cc.MessageModel == broadcastingModel {
			return errBroadcastNoStats
		}
	}
	if err := printGroupProgress(e, stats); err != nil {
		return err
	}
	return partialResult(failed, asked, "brokers")
}

// progressRow is one queue of consumerProgress -g -json.
type progressRow struct {
	Topic          string `json:"topic"`
	BrokerName     string `json:"brokerName"`
	QueueID        int32  `json:"queueId"`
	BrokerOffset   int64  `json:"brokerOffset"`
	ConsumerOffset int64  `json:"consumerOffset"`
	Diff           int64  `json:"diff"`
	Inflight       int64  `json:"inflight"`
	LastTimestamp  int64  `json:"lastTimestamp"`
}

// printGroupProgress writes Java's table (queues in MessageQueue order) or
// JSON. -s true adds Java's client column; finding each queue's client
// needs the consumers' running info, which this tool does not ask for, so
// it shows N/A, as Java does for a queue it cannot place.
func printGroupProgress(e *env, stats admin.ConsumeStats) error {
	queues := slices.SortedFunc(maps.Keys(stats.OffsetTable), admin.MessageQueue.Compare)
	rows := make([]progressRow, 0, len(queues))
	var diffTotal, inflightTotal int64
	for _, mq := range queues {
		w := stats.OffsetTable[mq]
		row := progressRow{Topic: mq.Topic, BrokerName: mq.BrokerName, QueueID: mq.QueueID, BrokerOffset: w.BrokerOffset,
			ConsumerOffset: w.ConsumerOffset, Diff: w.BrokerOffset - w.ConsumerOffset, Inflight: w.PullOffset - w.ConsumerOffset, LastTimestamp: w.LastTimestamp}
		diffTotal += row.Diff
		inflightTotal += row.Inflight
		rows = append(rows, row)
	}
	if e.json {
		return e.printJSON(map[string]any{"queues": rows, "consumeTps": stats.ConsumeTps, "diffTotal": diffTotal, "inflightTotal": inflightTotal})
	}
	showClient := strings.EqualFold(e.args.get("s"), "true")
	var b strings.Builder
	if showClient {
		fmt.Fprintf(&b, "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s %-20s%s\n", "#Topic", "#Broker Name", "#QID",
			"#Broker Offset", "#Consumer Offset", "#Client IP", "#Diff", "#Inflight", "#LastTime")
	} else {
		fmt.Fprintf(&b, "%-64s  %-32s  %-4s  %-20s  %-20s  %-20s %-20s%s\n", "#Topic", "#Broker Name", "#QID",
			"#Broker Offset", "#Consumer Offset", "#Diff", "#Inflight", "#LastTime")
	}
	for _, r := range rows {
		last := "N/A"
		if r.LastTimestamp != 0 {
			last = time.UnixMilli(r.LastTimestamp).Format("2006-01-02 15:04:05")
		}
		topic, broker := frontStringAtLeast(r.Topic, 64), frontStringAtLeast(r.BrokerName, 32)
		if showClient {
			fmt.Fprintf(&b, "%-64s  %-32s  %-4d  %-20d  %-20d  %-20s %-20d %-20d %s\n", topic, broker, r.QueueID,
				r.BrokerOffset, r.ConsumerOffset, "N/A", r.Diff, r.Inflight, last)
		} else {
			fmt.Fprintf(&b, "%-64s  %-32s  %-4d  %-20d  %-20d  %-20d %-20d %s\n", topic, broker, r.QueueID,
				r.BrokerOffset, r.ConsumerOffset, r.Diff, r.Inflight, last)
		}
	}
	fmt.Fprintf(&b, "\nConsume TPS: %.2f\nConsume Diff Total: %d\nConsume Inflight Total: %d\n", stats.ConsumeTps, diffTotal, inflightTotal)
	_, err := fmt.Fprint(e.out, b.String())
	return err
}

// consumeStats asks one broker for a group's progress (on one topic if
// topic is not empty).
func consumeStats(e *env, addr, group, topic string) (admin.ConsumeStats, error) {
	header := remoting.EncodeHeader(admin.GetConsumeStatsRequestHeader{ConsumerGroup: group, Topic: topic})
	return askDecoded(e, addr, remoting.GET_CONSUME_STATS, header, "consume stats", admin.DecodeConsumeStats)
}

// groupConnection is Java's examineConsumerConnectionInfo: the first broker
// of the group's retry topic route that knows the group's consumers.
func groupConnection(e *env, group string) (consumerConnection, error) {
	data, err := e.client.topicRoute(retryTopicPrefix + group)
	if err != nil {
		return consumerConnection{}, err
	}
	var errs []error
	for _, bd := range data.BrokerDatas {
		addr := selectBrokerAddr(bd)
		if addr == "" {
			continue
		}
		resp, err := e.client.invoke(addr, remoting.GET_CONSUMER_CONNECTION_LIST, map[string]string{"consumerGroup": group}, nil)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var cc consumerConnection
		if err := json.Unmarshal(resp.Body, &cc); err != nil {
			return consumerConnection{}, fmt.Errorf("consumer connections from %s: %w", addr, err)
		}
		return cc, nil
	}
	return consumerConnection{}, fmt.Errorf("no consumer connections of %s: %w", group, errors.Join(errs...))
}

// groupSummary is one line of consumerProgress without -g.
type groupSummary struct {
	Group     string `json:"group"`
	Count     int    `json:"count"`
	Version   string `json:"version"`
	Type      string `json:"type"`
	Model     string `json:"model"`
	TPS       int64  `json:"tps"`
	DiffTotal int64  `json:"diffTotal"`
}

// allGroupsProgress is consumerProgress without -g: every group with a
// retry topic in the NameServer's topic list. As Java, a group whose stats
// or connections cannot be had still gets its line (OFFLINE, zeros).
func allGroupsProgress(e *env) error {
	list, err := nameServerTopics(e)
	if err != nil {
		return err
	}
	var summaries []groupSummary
	for _, topic := range sortedCopy(list.TopicList) {
		if !strings.HasPrefix(topic, retryTopicPrefix) {
			continue
		}
		summaries = append(summaries, summarizeGroup(e, retryTopicGroup(topic)))
	}
	if e.json {
		return e.printJSON(append([]groupSummary{}, summaries...))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-64s  %-6s  %-24s %-5s  %-14s  %-7s  %s\n", "#Group", "#Count", "#Version", "#Type", "#Model", "#TPS", "#Diff Total")
	for _, s := range summaries {
		fmt.Fprintf(&b, "%-64s  %-6d  %-24s %-5s  %-14s  %-7d  %d\n", frontStringAtLeast(s.Group, 64), s.Count, s.Version, s.Type, s.Model, s.TPS, s.DiffTotal)
	}
	_, err = fmt.Fprint(e.out, b.String())
	return err
}

// retryTopicGroup is Java's KeyBuilder.parseGroup.
func retryTopicGroup(topic string) string {
	rest := strings.TrimPrefix(topic, retryTopicPrefix)
	if parts := strings.Split(rest, "+"); len(parts) == 2 {
		return parts[0]
	}
	return rest
}

// summarizeGroup gathers one group's line; what cannot be had stays zero.
func summarizeGroup(e *env, group string) groupSummary {
	s := groupSummary{Group: group, Version: "OFFLINE"}
	if data, err := e.client.topicRoute(retryTopicPrefix + group); err == nil {
		stats := admin.ConsumeStats{OffsetTable: map[admin.MessageQueue]admin.OffsetWrapper{}}
		forEachRouteBrokerQuiet(data, func(addr string) {
			if st, err := consumeStats(e, addr, group, ""); err == nil {
				maps.Copy(stats.OffsetTable, st.OffsetTable)
				stats.ConsumeTps += st.ConsumeTps
			}
		})
		s.TPS = int64(stats.ConsumeTps)
		for _, w := range stats.OffsetTable {
			s.DiffTotal += w.BrokerOffset - w.ConsumerOffset
		}
	}
	cc, err := groupConnection(e, group)
	if err != nil || len(cc.ConnectionSet) == 0 {
		return s
	}
	s.Count = len(cc.ConnectionSet)
	minVersion := int32(math.MaxInt32)
	for _, c := range cc.ConnectionSet {
		minVersion = min(minVersion, c.Version)
	}
	s.Version = mqversion.Name(minVersion)
	s.Type = "PUSH"
	if cc.ConsumeType == consumeActivelyType {
		s.Type = "PULL"
	} else {
		s.Model = cc.MessageModel
	}
	return s
}

// forEachRouteBrokerQuiet runs ask on one address of every broker group.
func forEachRouteBrokerQuiet(data *route.TopicRouteData, ask func(addr string)) {
	for _, bd := range data.BrokerDatas {
		if addr := selectBrokerAddr(bd); addr != "" {
			ask(addr)
		}
	}
}
