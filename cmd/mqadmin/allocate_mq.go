package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
	"github.com/gonamesrv/gonamesrv/route"
)

// allocateMQ (Java tools/.../command/topic/AllocateMQSubCommand): how
// AllocateMessageQueueAveragely shares a topic's readable queues among the
// given client ids, computed here from the route as Java's tool does.
var allocateMQCommand = command{name: "allocateMQ", desc: "Allocate MQ.", className: "AllocateMQSubCommand",
	read: true, run: runAllocateMQ, opts: []option{
		opt("t", "topic", true, true, "topic name"),
		opt("i", "ipList", true, true, "ipList"),
	}}

func init() { commands = append(commands, allocateMQCommand) }

// Java's AllocateMessageQueueAveragely refusals.
var (
	errEmptyClientID = errors.New("currentCID is empty")
	errNoQueues      = errors.New("mqAll is null or mqAll empty")
)

func runAllocateMQ(e *env) error {
	data, err := e.client.topicRoute(e.args.get("t"))
	if err != nil {
		return err
	}
	alloc, err := allocateQueues(e.args.get("t"), javaSplit(e.args.get("i"), ","), data)
	if err != nil {
		return err
	}
	if e.json {
		return e.printJSON(map[string]any{"result": alloc.result})
	}
	text, err := alloc.javaJSON()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.out, "%s\n", text)
	return err
}

// allocation is Java's RebalanceResult: each client id's queues, the ids in
// the order they were first given.
type allocation struct {
	result map[string][]admin.MessageQueue
	ids    []string
}

// allocateQueues gives each id its share, as Java's tool asks
// AllocateMessageQueueAveragely for every id of the list in turn.
func allocateQueues(topic string, ids []string, data *route.TopicRouteData) (allocation, error) {
	queues := subscribeQueues(topic, data)
	alloc := allocation{result: map[string][]admin.MessageQueue{}}
	for _, id := range ids {
		mine, err := allocateAveragely(id, queues, ids)
		if err != nil {
			return allocation{}, err
		}
		if _, seen := alloc.result[id]; !seen {
			alloc.ids = append(alloc.ids, id)
		}
		alloc.result[id] = mine
	}
	return alloc, nil
}

// javaJSON is the RebalanceResult as Java's tool prints it: fastjson,
// compact, the HashMap of ids in hash order.
func (a allocation) javaJSON() (string, error) {
	var b strings.Builder
	b.WriteString(`{"result":{`)
	for i, id := range javaHashOrderedKeys(a.ids) {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := jsonesc.Marshal(id)
		if err != nil {
			return "", err
		}
		value, err := jsonesc.Marshal(a.result[id])
		if err != nil {
			return "", err
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteString("}}")
	return b.String(), nil
}

// subscribeQueues is Java's MQClientInstance.topicRouteData2TopicSubscribeInfo
// as a list: every queue of each readable queue data, in the order the
// HashSet Java collects them in iterates.
func subscribeQueues(topic string, data *route.TopicRouteData) []admin.MessageQueue {
	var inserted []admin.MessageQueue
	seen := map[admin.MessageQueue]bool{}
	for _, qd := range data.QueueDatas {
		if qd.Perm&route.PermRead == 0 {
			continue
		}
		for i := range qd.ReadQueueNums {
			mq := admin.MessageQueue{Topic: topic, BrokerName: qd.BrokerName, QueueID: i}
			if !seen[mq] {
				seen[mq] = true
				inserted = append(inserted, mq)
			}
		}
	}
	hashes := make([]int32, len(inserted))
	for i, mq := range inserted {
		hashes[i] = messageQueueHash(mq)
	}
	out := make([]admin.MessageQueue, len(inserted))
	for i, idx := range javaHashMapOrder(hashes) {
		out[i] = inserted[idx]
	}
	return out
}

// allocateAveragely is Java's AllocateMessageQueueAveragely.allocate: the
// client at index i of all gets a contiguous run of the queues, the first
// len(queues) % len(all) clients one more than the others.
func allocateAveragely(current string, queues []admin.MessageQueue, all []string) ([]admin.MessageQueue, error) {
	if current == "" {
		return nil, errEmptyClientID
	}
	if len(queues) == 0 {
		return nil, errNoQueues
	}
	index := -1
	for i, id := range all {
		if id == current {
			index = i
			break
		}
	}
	result := []admin.MessageQueue{}
	if index < 0 {
		return result, nil
	}
	n, m := len(queues), len(all)
	mod := n % m
	average := n / m
	switch {
	case n <= m:
		average = 1
	case mod > 0 && index < mod:
		average = n/m + 1
	}
	start := index*average + mod
	if mod > 0 && index < mod {
		start = index * average
	}
	for i := 0; i < min(average, n-start); i++ {
		result = append(result, queues[start+i])
	}
	return result, nil
}

// javaSplit is Java's String.split with a literal separator: trailing
// empty parts are dropped, and a text without the separator is kept whole.
func javaSplit(s, sep string) []string {
	if !strings.Contains(s, sep) {
		return []string{s}
	}
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
