package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// updateSubGroup and deleteSubGroup (Java tools/.../command/consumer/
// UpdateSubGroupSubCommand and DeleteSubscriptionGroupCommand): a
// subscription group created, changed or removed on one broker (-b) or on
// every master of a cluster (-c).
var subGroupCommands = []command{
	{name: "updateSubGroup", desc: "Update or create subscription group.", className: "UpdateSubGroupSubCommand",
		run: runUpdateSubGroup, opts: []option{
			opt("b", "brokerAddr", true, false, "create subscription group to which broker"),
			opt("c", "clusterName", true, false, "create subscription group to which cluster"),
			opt("g", "groupName", true, true, "consumer group name"),
			opt("s", "consumeEnable", true, false, "consume enable"),
			opt("m", "consumeFromMinEnable", true, false, "from min offset"),
			opt("d", "consumeBroadcastEnable", true, false, "broadcast"),
			opt("o", "consumeMessageOrderly", true, false, "consume message orderly"),
			opt("q", "retryQueueNums", true, false, "retry queue nums"),
			opt("r", "retryMaxTimes", true, false, "retry max times"),
			opt("p", "groupRetryPolicy", true, false, "the json string of retry policy ( exp: "+
				`{"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,"max":7200000,"multiplier":2}} `+
				`{"type":"CUSTOMIZED","customizedRetryPolicy":{"next":[1000,5000,10000]}} )`),
			opt("i", "brokerId", true, false, "consumer from which broker id"),
			opt("w", "whichBrokerWhenConsumeSlowly", true, false, "which broker id when consume slowly"),
			opt("a", "notifyConsumerIdsChanged", true, false, "notify consumerId changed"),
			// Java's option has no short name: --attributes only.
			opt("attributes", "attributes", true, false, "attribute(+a=b,+c=d,-e)"),
		}},
	{name: "deleteSubGroup", desc: "Delete subscription group from broker.", className: "DeleteSubscriptionGroupCommand",
		run: runDeleteSubGroup, opts: []option{
			opt("b", "brokerAddr", true, false, "delete subscription group from which broker"),
			opt("c", "clusterName", true, false, "delete subscription group from which cluster"),
			opt("g", "groupName", true, true, "subscription group name"),
			opt("r", "removeOffset", true, false, "remove offset"),
		}},
}

func init() { commands = append(commands, subGroupCommands...) }

// javaParseBoolean is Boolean.parseBoolean: true only for "true", any case.
func javaParseBoolean(s string) bool { return strings.EqualFold(s, "true") }

// subGroupConfigFromOptions builds the config as Java's tool does: Java's
// defaults but broadcast and from-min off, then each option given.
func subGroupConfigFromOptions(e *env) (subgroup.Config, error) {
	c := subgroup.NewConfig(e.args.get("g"))
	c.ConsumeBroadcastEnable, c.ConsumeFromMinEnable = false, false
	for short, field := range map[string]*bool{"s": &c.ConsumeEnable, "m": &c.ConsumeFromMinEnable,
		"d": &c.ConsumeBroadcastEnable, "o": &c.ConsumeMessageOrderly, "a": &c.NotifyConsumerIdsChangedEnable} {
		if e.args.has(short) {
			*field = javaParseBoolean(e.args.get(short))
		}
	}
	var err error
	if c.RetryQueueNums, err = intOption(e, "q", c.RetryQueueNums); err != nil {
		return c, err
	}
	if c.RetryMaxTimes, err = intOption(e, "r", c.RetryMaxTimes); err != nil {
		return c, err
	}
	for short, field := range map[string]*int64{"i": &c.BrokerID, "w": &c.WhichBrokerWhenConsumeSlowly} {
		if e.args.has(short) {
			if *field, err = strconv.ParseInt(e.args.get(short), 10, 64); err != nil {
				return c, fmt.Errorf("option -%s: %q is not a number", short, e.args.get(short))
			}
		}
	}
	if e.args.has("p") {
		var policy subgroup.RetryPolicy
		if err := json.Unmarshal([]byte(e.args.get("p")), &policy); err != nil {
			return c, fmt.Errorf("option -p: %w", err)
		}
		c.GroupRetryPolicy = policy
	}
	if e.args.has("attributes") {
		if c.Attributes, err = topicconfig.ParseAttributeModification(e.args.get("attributes")); err != nil {
			return c, err
		}
	}
	return c, nil
}

func runUpdateSubGroup(e *env) error {
	c, err := subGroupConfigFromOptions(e)
	if err != nil {
		return err
	}
	body, err := c.Encode()
	if err != nil {
		return err
	}
	create := func(addr string) error {
		_, err := e.client.invoke(addr, remoting.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, nil, body)
		return err
	}
	switch {
	case e.args.has("b"):
		addr := e.args.get("b")
		if err := create(addr); err != nil {
			return err
		}
		_, err := fmt.Fprintf(e.out, "create subscription group to %s success.\n%s", addr, c)
		return err
	case e.args.has("c"):
		masters, err := clusterMasters(e, e.args.get("c"))
		if err != nil {
			return err
		}
		failed := 0
		for _, addr := range masters {
			if err := create(addr); err != nil {
				failed++
				fmt.Fprintf(e.errOut, "create subscription group to %s failed: %v\n", addr, err)
				continue
			}
			fmt.Fprintf(e.out, "create subscription group to %s success.\n", addr)
		}
		if failed == len(masters) && failed > 0 {
			return fmt.Errorf("no master of cluster %s took subscription group %s", e.args.get("c"), c.GroupName)
		}
		fmt.Fprint(e.out, c)
		return partialResult(failed, len(masters), "brokers")
	default:
		return errUsage
	}
}

// clusterMasters is the masters of a cluster, or an error naming it.
func clusterMasters(e *env, cluster string) ([]string, error) {
	info, err := e.client.clusterInfo()
	if err != nil {
		return nil, err
	}
	masters, ok := mastersOf(info, cluster)
	if !ok {
		return nil, errClusterNotFound(cluster)
	}
	return masters, nil
}

// subscriptionGroups asks one broker for its whole group table.
func subscriptionGroups(e *env, addr string) (subgroup.Wrapper, error) {
	return askDecoded(e, addr, remoting.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, nil, "subscription groups", subgroup.DecodeWrapper)
}

// runDeleteSubGroup deletes as Java does, but first checks that the group
// exists on at least one of the brokers asked (a Java broker answers
// success for a group it does not have, so a typo would go unnoticed); a
// broker that cannot list its groups is a failure and is not asked to
// delete.
func runDeleteSubGroup(e *env) error {
	group := e.args.get("g")
	clean := javaParseBoolean(e.args.get("r"))
	header := remoting.EncodeHeader(admin.DeleteSubscriptionGroupRequestHeader{GroupName: group, CleanOffset: &clean})
	var targets []string
	switch {
	case e.args.has("b"):
		targets = []string{e.args.get("b")}
	case e.args.has("c"):
		var err error
		if targets, err = clusterMasters(e, e.args.get("c")); err != nil {
			return err
		}
	default:
		return errUsage
	}
	var answered []string
	holders, failed := 0, 0
	for _, addr := range targets {
		w, err := subscriptionGroups(e, addr)
		if err != nil {
			failed++
			fmt.Fprintf(e.errOut, "read subscription groups of %s failed: %v\n", addr, err)
			continue
		}
		answered = append(answered, addr)
		if _, ok := w.Groups[group]; ok {
			holders++
		}
	}
	if holders == 0 {
		if failed > 0 {
			return fmt.Errorf("subscription group [%s] not found on the brokers that answered (%d of %d did not)", group, failed, len(targets))
		}
		return fmt.Errorf("subscription group [%s] not found on broker%s %s", group, plural(len(targets)), strings.Join(targets, ", "))
	}
	for _, addr := range answered {
		if _, err := e.client.invoke(addr, remoting.DELETE_SUBSCRIPTIONGROUP, header, nil); err != nil {
			failed++
			fmt.Fprintf(e.errOut, "delete subscription group [%s] from broker [%s] failed: %v\n", group, addr, err)
			continue
		}
		if e.args.has("b") {
			fmt.Fprintf(e.out, "delete subscription group [%s] from broker [%s] success.\n", group, addr)
		} else {
			fmt.Fprintf(e.out, "delete subscription group [%s] from broker [%s] in cluster [%s] success.\n", group, addr, e.args.get("c"))
		}
	}
	if e.args.has("c") {
		// Java then deletes the group's retry and DLQ topics from the
		// cluster; what fails there is printed, not counted (as Java).
		for _, prefix := range []string{"%RETRY%", "%DLQ%"} {
			if err := deleteTopicEverywhere(e, prefix+group, e.args.get("c")); err != nil {
				fmt.Fprintf(e.errOut, "delete topic %s%s: %v\n", prefix, group, err)
			}
		}
	}
	return partialResult(failed, len(targets), "brokers")
}

// deleteTopicEverywhere is Java's DefaultMQAdminExt.deleteTopic: the topic
// off every broker (masters and slaves) of the cluster, off every
// NameServer, and its order config.
func deleteTopicEverywhere(e *env, topic, cluster string) error {
	info, err := e.client.clusterInfo()
	if err != nil {
		return err
	}
	for _, name := range sortedCopy(info.ClusterAddrTable[cluster]) {
		for _, addr := range setAddresses(info, name) {
			if _, err := e.client.invoke(addr, remoting.DELETE_TOPIC_IN_BROKER, map[string]string{"topic": topic}, nil); err != nil {
				return err
			}
		}
	}
	return forEachNameServer(e, func(addr string) error {
		if _, err := e.client.invoke(addr, remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"topic": topic}, nil); err != nil {
			return err
		}
		_, err := e.client.invoke(addr, remoting.DELETE_KV_CONFIG, map[string]string{"namespace": orderTopicConfigNamespace, "key": topic}, nil)
		return err
	})
}
