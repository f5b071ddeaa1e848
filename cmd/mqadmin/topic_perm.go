package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// updateTopicPerm (Java tools/.../command/topic/UpdateTopicPermSubCommand):
// the topic's config as its route's first queue data describes it, sent
// with the new perm (UPDATE_AND_CREATE_TOPIC) to one master (-b) or every
// master of a cluster (-c).
var updateTopicPermCommand = command{name: "updateTopicPerm", desc: "Update topic perm.", className: "UpdateTopicPermSubCommand",
	run: runUpdateTopicPerm, opts: []option{
		opt("b", "brokerAddr", true, false, "create topic to which broker"),
		opt("c", "clusterName", true, false, "create topic to which cluster"),
		opt("t", "topic", true, true, "topic name"),
		opt("p", "perm", true, true, "set topic's permission(2|4|6), intro[2:W; 4:R; 6:RW]"),
	}}

func init() { commands = append(commands, updateTopicPermCommand) }

// errNotMasterOfTopic is Java's line for a -b that is no master of the topic.
var errNotMasterOfTopic = errors.New("updateTopicPerm error broker not exit or broker is not master!.")

func runUpdateTopicPerm(e *env) error {
	topic := e.args.get("t")
	perm64, err := strconv.ParseInt(e.args.get("p"), 10, 32)
	if err != nil {
		return fmt.Errorf("option -p: %q is not a number", e.args.get("p"))
	}
	perm := int32(perm64)
	if !e.args.has("b") && !e.args.has("c") {
		return errUsage
	}
	data, err := e.client.topicRoute(topic)
	if err != nil {
		return err
	}
	if len(data.QueueDatas) == 0 {
		return fmt.Errorf("topic %s has no queue data in its route", topic)
	}
	first := data.QueueDatas[0]
	tc := route.NewTopicConfig(topic)
	tc.ReadQueueNums, tc.WriteQueueNums, tc.TopicSysFlag, tc.Perm = first.ReadQueueNums, first.WriteQueueNums, first.TopicSysFlag, perm
	if e.args.has("b") {
		return updateTopicPermOnBroker(e, data, tc, e.args.get("b"))
	}
	masters, err := clusterMasters(e, e.args.get("c"))
	if err != nil {
		return err
	}
	failed := 0
	for _, addr := range masters {
		if err := createTopicConfig(e, addr, tc); err != nil {
			failed++
			fmt.Fprintf(e.errOut, "update topic perm in %s failed: %v\n", addr, err)
			continue
		}
		fmt.Fprintf(e.out, "update topic perm from %d to %d in %s success.\n", first.Perm, perm, addr)
	}
	return partialResult(failed, len(masters), "brokers")
}

// updateTopicPermOnBroker is -b: the address must be the master of a group
// of the topic's route; an unchanged perm is said and nothing sent.
func updateTopicPermOnBroker(e *env, data *route.TopicRouteData, tc route.TopicConfig, addr string) error {
	brokerName := ""
	for _, bd := range data.BrokerDatas {
		if bd.BrokerAddrs[route.MasterID] == addr {
			brokerName = bd.BrokerName
			break
		}
	}
	if brokerName == "" {
		return errNotMasterOfTopic
	}
	oldPerm := int32(0)
	for _, qd := range data.QueueDatas {
		if qd.BrokerName == brokerName {
			oldPerm = qd.Perm
			break
		}
	}
	if oldPerm == tc.Perm {
		_, err := fmt.Fprintln(e.out, "new perm equals to the old one!")
		return err
	}
	if err := createTopicConfig(e, addr, tc); err != nil {
		return err
	}
	_, err := fmt.Fprintf(e.out, "update topic perm from %d to %d in %s success.\n%s.\n", oldPerm, tc.Perm, addr, topicConfigText(tc))
	return err
}

// createTopicConfig sends one topic config as Java's
// createAndUpdateTopicConfig does (attributes as modification text, "" for
// none).
func createTopicConfig(e *env, addr string, tc route.TopicConfig) error {
	attributes := ""
	sysFlag := tc.TopicSysFlag
	header := admin.CreateTopicRequestHeader{
		Topic: tc.TopicName, DefaultTopic: topicconfig.AutoCreateTopicKeyTopic,
		ReadQueueNums: tc.ReadQueueNums, WriteQueueNums: tc.WriteQueueNums, Perm: tc.Perm,
		TopicFilterType: tc.TopicFilterType, TopicSysFlag: &sysFlag, Order: tc.Order, Attributes: &attributes,
	}
	_, err := e.client.invoke(addr, remoting.UPDATE_AND_CREATE_TOPIC, remoting.EncodeHeader(header), nil)
	return err
}
