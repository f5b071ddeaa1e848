package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	rmqadmin "github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
)

// clusterDeadline bounds waits for something that must happen within one
// registration period; the margin only absorbs process scheduling on a busy
// machine and asserts nothing about speed.
const clusterDeadline = clusterRegisterPeriod + 10*time.Second

// goClientQueues asks one NameServer, through the Apache Go client's admin
// API (a fresh instance, so no cached route), for a topic's writable queues
// per broker name.
func goClientQueues(nsAddr, topic string) (map[string]int, error) {
	adm, err := rmqadmin.NewAdmin(rmqadmin.WithResolver(primitive.NewPassthroughResolver([]string{nsAddr})))
	if err != nil {
		return nil, err
	}
	defer adm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	queues, err := adm.FetchPublishMessageQueues(ctx, topic)
	if err != nil {
		return nil, err
	}
	perBroker := map[string]int{}
	for _, q := range queues {
		perBroker[q.BrokerName]++
	}
	return perBroker, nil
}

func TestClusterEndToEnd(t *testing.T) {
	ns1, ns2 := startNamesrv(t), startNamesrv(t)
	nsList := ns1.Addr + ";" + ns2.Addr
	nameServers := []*process{ns1, ns2}
	const cluster = "E2ECluster"
	masterA := startBroker(t, brokerSpec{cluster: cluster, name: "broker-a", id: 0, nameServers: nameServers})
	slaveA := startBroker(t, brokerSpec{cluster: cluster, name: "broker-a", id: 1, nameServers: nameServers})
	masterB := startBroker(t, brokerSpec{cluster: cluster, name: "broker-b", id: 0, nameServers: nameServers})
	members := []string{"broker-a/0=" + masterA.Addr, "broker-a/1=" + slaveA.Addr, "broker-b/0=" + masterB.Addr}
	waitMembers := func(ns *process, want []string, what string) {
		eventually(t, clusterDeadline, what, func() error {
			known, err := brokerAddrsOf(ns.Addr)
			if err != nil {
				return err
			}
			for _, m := range want {
				if !known[m] {
					return fmt.Errorf("%s lacks %s (has %v)", ns.Addr, m, known)
				}
			}
			return nil
		})
	}
	for _, ns := range nameServers {
		waitMembers(ns, members, "all brokers registered on "+ns.Addr)
	}

	// updateTopic -c creates the topic on both masters; both NameServers route it.
	const topic = "E2ETopic"
	out := mustMqadmin(t, "updateTopic", "-n", nsList, "-c", cluster, "-t", topic, "-r", "4", "-w", "4")
	for _, addr := range []string{masterA.Addr, masterB.Addr} {
		if !strings.Contains(out, "create topic to "+addr+" success.") {
			t.Errorf("updateTopic output lacks %s:\n%s", addr, out)
		}
	}
	if !strings.Contains(out, "TopicConfig [topicName=E2ETopic, readQueueNums=4, writeQueueNums=4, perm=RW-") {
		t.Errorf("updateTopic output lacks the topic config:\n%s", out)
	}
	for _, ns := range nameServers {
		eventually(t, clusterDeadline, "Go client sees the topic on "+ns.Addr, func() error {
			perBroker, err := goClientQueues(ns.Addr, topic)
			if err != nil {
				return err
			}
			if perBroker["broker-a"] != 4 || perBroker["broker-b"] != 4 || len(perBroker) != 2 {
				return fmt.Errorf("queues per broker %v, want 4 on broker-a and broker-b", perBroker)
			}
			return nil
		})
	}

	// The slave copies its master's topic.
	eventually(t, clusterDeadline, "slave copies the topic", func() error {
		topics, err := brokerTopics(slaveA.Addr)
		if err != nil {
			return err
		}
		if tc, ok := topics[topic]; !ok || tc.WriteQueueNums != 4 {
			return fmt.Errorf("slave has %+v", tc)
		}
		return nil
	})

	// wipeWritePerm drains broker-a, addWritePerm restores it.
	permOf := func(ns *process) (int32, error) {
		data, code, err := routeOf(ns.Addr, topic)
		if err != nil || data == nil {
			return 0, fmt.Errorf("route code %d: %v", code, err)
		}
		for _, q := range data.QueueDatas {
			if q.BrokerName == "broker-a" {
				return q.Perm, nil
			}
		}
		return 0, fmt.Errorf("no queue data for broker-a")
	}
	out = mustMqadmin(t, "wipeWritePerm", "-n", nsList, "-b", "broker-a")
	for _, ns := range nameServers {
		if !strings.Contains(out, "wipe write perm of broker[broker-a] in name server["+ns.Addr+"] OK, ") {
			t.Errorf("wipeWritePerm output lacks %s:\n%s", ns.Addr, out)
		}
		if perm, err := permOf(ns); err != nil || perm != 4 {
			t.Errorf("perm on %s after wipe = %d, %v; want 4", ns.Addr, perm, err)
		}
	}
	time.Sleep(2 * clusterRegisterPeriod) // let periodic re-registrations pass: they must not undo the wipe
	if perm, err := permOf(ns1); err != nil || perm != 4 {
		t.Errorf("perm after re-registrations = %d, %v; want still 4", perm, err)
	}
	out = mustMqadmin(t, "addWritePerm", "-n", nsList, "-b", "broker-a")
	for _, ns := range nameServers {
		if !strings.Contains(out, "add write perm of broker[broker-a] in name server["+ns.Addr+"] OK, ") {
			t.Errorf("addWritePerm output lacks %s:\n%s", ns.Addr, out)
		}
		if perm, err := permOf(ns); err != nil || perm != 6 {
			t.Errorf("perm on %s after add = %d, %v; want 6", ns.Addr, perm, err)
		}
	}

	// deleteTopic removes it from the brokers and both NameServers.
	out = mustMqadmin(t, "deleteTopic", "-n", nsList, "-c", cluster, "-t", topic)
	if !strings.Contains(out, "delete topic [E2ETopic] from NameServer success.") {
		t.Errorf("deleteTopic output:\n%s", out)
	}
	for _, ns := range nameServers {
		eventually(t, clusterDeadline, "topic gone from "+ns.Addr, func() error {
			if _, code, err := routeOf(ns.Addr, topic); err != nil || code != 17 {
				return fmt.Errorf("route code %d, %v; want 17", code, err)
			}
			return nil
		})
	}
	if topics, err := brokerTopics(masterA.Addr); err != nil || topics[topic].TopicName != "" {
		t.Errorf("master still has the topic: %v", err)
	}

	// topics.json survives a broker restart.
	mustMqadmin(t, "updateTopic", "-n", nsList, "-b", masterA.Addr, "-t", "Durable", "-r", "3", "-w", "3")
	if code := masterA.Stop(); code != 0 {
		t.Errorf("broker exit code %d, want 0", code)
	}
	text, err := os.ReadFile(filepath.Join(masterA.DataDir, "config", "topics.json"))
	if err != nil || !strings.Contains(string(text), "\t\t\"Durable\":{\n") {
		t.Fatalf("topics.json lacks Durable (%v):\n%s", err, text)
	}
	masterA.start()
	eventually(t, clusterDeadline, "restarted master keeps Durable", func() error {
		topics, err := brokerTopics(masterA.Addr)
		if err != nil {
			return err
		}
		if topics["Durable"].ReadQueueNums != 3 {
			return fmt.Errorf("Durable = %+v", topics["Durable"])
		}
		return nil
	})

	// Stopping a broker removes its routes.
	if code := masterB.Stop(); code != 0 {
		t.Errorf("broker-b exit code %d, want 0", code)
	}
	for _, ns := range nameServers {
		eventually(t, clusterDeadline, "broker-b gone from "+ns.Addr, func() error {
			known, err := brokerAddrsOf(ns.Addr)
			if err != nil {
				return err
			}
			if known["broker-b/0="+masterB.Addr] {
				return fmt.Errorf("still registered")
			}
			if _, code, _ := routeOf(ns.Addr, "broker-b"); code != 17 {
				return fmt.Errorf("route of topic broker-b answers code %d, want 17", code)
			}
			return nil
		})
	}

	// A NameServer killed and started again gets every route back.
	ns2.Restart()
	waitMembers(ns2, members[:2], "routes back on the restarted name server")
	eventually(t, clusterDeadline, "Durable routed by the restarted name server", func() error {
		perBroker, err := goClientQueues(ns2.Addr, "Durable")
		if err != nil {
			return err
		}
		if perBroker["broker-a"] != 3 {
			return fmt.Errorf("queues %v", perBroker)
		}
		return nil
	})
}
