package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// topicStatus (Java tools/.../command/topic/TopicStatusSubCommand): each
// queue's offsets, asked of one broker of every group of the topic's route
// (GET_TOPIC_STATS_INFO); with -c, of the groups of that cluster's route.
var topicStatusCommand = command{name: "topicStatus", desc: "Examine topic Status info.", className: "TopicStatusSubCommand",
	read: true, run: runTopicStatus, opts: []option{
		opt("t", "topic", true, true, "topic name"),
		opt("c", "cluster", true, false, "cluster name or lmq parent topic, lmq is used to find the route."),
	}}

func init() { commands = append(commands, topicStatusCommand) }

// topicStatusRow is one queue of topicStatus -json.
type topicStatusRow struct {
	BrokerName          string `json:"brokerName"`
	QueueID             int32  `json:"queueId"`
	MinOffset           int64  `json:"minOffset"`
	MaxOffset           int64  `json:"maxOffset"`
	LastUpdateTimestamp int64  `json:"lastUpdateTimestamp"`
}

func runTopicStatus(e *env) error {
	topic := e.args.get("t")
	routeTopic := topic
	if e.args.has("c") {
		routeTopic = e.args.get("c")
	}
	data, err := e.client.topicRoute(routeTopic)
	if err != nil {
		return err
	}
	table := admin.TopicStatsTable{OffsetTable: map[admin.MessageQueue]admin.TopicOffset{}}
	failed, asked := forEachRouteBroker(e, data, func(addr string) error {
		stats, err := topicStats(e, addr, topic)
		if err == nil {
			maps.Copy(table.OffsetTable, stats.OffsetTable)
			table.TopicPutTps += stats.TopicPutTps
		}
		return err
	})
	if failed == asked && asked > 0 {
		return fmt.Errorf("no broker of topic %s answered GET_TOPIC_STATS_INFO", topic)
	}
	if len(table.OffsetTable) == 0 && failed == 0 {
		// Java's examineTopicStats says this of a route without queues.
		return fmt.Errorf("Not found the topic stats info")
	}
	if err := printTopicStatus(e, topic, table); err != nil {
		return err
	}
	return partialResult(failed, asked, "brokers")
}

// printTopicStatus writes Java's table, queues in MessageQueue order, or
// the JSON rows.
func printTopicStatus(e *env, topic string, table admin.TopicStatsTable) error {
	queues := slices.SortedFunc(maps.Keys(table.OffsetTable), admin.MessageQueue.Compare)
	if e.json {
		rows := make([]topicStatusRow, 0, len(queues))
		for _, mq := range queues {
			off := table.OffsetTable[mq]
			rows = append(rows, topicStatusRow{BrokerName: mq.BrokerName, QueueID: mq.QueueID, MinOffset: off.MinOffset,
				MaxOffset: off.MaxOffset, LastUpdateTimestamp: off.LastUpdateTimestamp})
		}
		return e.printJSON(map[string]any{"topic": topic, "queues": rows, "topicPutTps": table.TopicPutTps})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-32s  %-4s  %-20s  %-20s    %s\n", "#Broker Name", "#QID", "#Min Offset", "#Max Offset", "#Last Updated")
	for _, mq := range queues {
		off := table.OffsetTable[mq]
		updated := ""
		if off.LastUpdateTimestamp > 0 {
			updated = time.UnixMilli(off.LastUpdateTimestamp).Format("2006-01-02 15:04:05,000")
		}
		fmt.Fprintf(&b, "%-32s  %-4d  %-20d  %-20d    %s\n", frontStringAtLeast(mq.BrokerName, 32), mq.QueueID, off.MinOffset, off.MaxOffset, updated)
	}
	// Java's tool never adds up the brokers' put TPS: it prints 0.0.
	b.WriteString("\nTopic Put TPS: 0.0\n")
	_, err := fmt.Fprint(e.out, b.String())
	return err
}

// topicStats asks one broker for a topic's queue offsets.
func topicStats(e *env, addr, topic string) (admin.TopicStatsTable, error) {
	header := remoting.EncodeHeader(admin.GetTopicStatsInfoRequestHeader{Topic: topic})
	return askDecoded(e, addr, remoting.GET_TOPIC_STATS_INFO, header, "topic stats", admin.DecodeTopicStatsTable)
}

// forEachRouteBroker runs ask on one address of every broker group of a
// route (Java BrokerData.selectBrokerAddr: the master, else a slave; here
// the lowest id rather than a random one). A failure is named on errOut and
// counted; the others go on.
func forEachRouteBroker(e *env, data *route.TopicRouteData, ask func(addr string) error) (failed, asked int) {
	for _, bd := range data.BrokerDatas {
		addr := selectBrokerAddr(bd)
		if addr == "" {
			continue
		}
		asked++
		if err := ask(addr); err != nil {
			failed++
			fmt.Fprintf(e.errOut, "broker %s (%s) failed: %v\n", addr, bd.BrokerName, err)
		}
	}
	return failed, asked
}

// selectBrokerAddr is the master's address, else the lowest slave id's.
func selectBrokerAddr(bd route.BrokerData) string {
	if addr, ok := bd.BrokerAddrs[route.MasterID]; ok && addr != "" {
		return addr
	}
	for _, id := range slices.Sorted(maps.Keys(bd.BrokerAddrs)) {
		if bd.BrokerAddrs[id] != "" {
			return bd.BrokerAddrs[id]
		}
	}
	return ""
}

// partialResult is nil when nothing failed, else a partialFailure.
func partialResult(failed, total int, what string) error {
	if failed == 0 {
		return nil
	}
	return &partialFailure{failed: failed, total: total, what: what}
}
