package main

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/route"
)

// TestAllocateMQMatchesJava compares with what Java 5.3.3's
// AllocateMQSubCommand code (topicRouteData2TopicSubscribeInfo, then
// AllocateMessageQueueAveragely for each id, printed with fastjson) printed
// for the same routes: testdata/allocate_mq_java5.txt, one line per case.
func TestAllocateMQMatchesJava(t *testing.T) {
	cases := []string{
		"TopicTest 127.0.0.1,127.0.0.2,127.0.0.3 broker-a:8 broker-b:8",
		"T c1,c2,c3,c4,c5,c6 broker-a:4",
		"orders 10.0.0.1,10.0.0.2,10.0.0.3,10.0.0.4,10.0.0.5,10.0.0.6,10.0.0.7 broker-a:16 broker-b:16 broker-c:16 broker-d:16 broker-e:16",
		"W x,y broker-a:4:2 broker-b:3:6",
	}
	want, err := os.ReadFile("testdata/allocate_mq_java5.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(want)), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d recorded lines for %d cases", len(lines), len(cases))
	}
	for i, c := range cases {
		fields := strings.Fields(c)
		data := &route.TopicRouteData{}
		for _, q := range fields[2:] {
			parts := strings.Split(q, ":")
			n, _ := strconv.Atoi(parts[1])
			perm := int64(6)
			if len(parts) > 2 {
				perm, _ = strconv.ParseInt(parts[2], 10, 32)
			}
			data.QueueDatas = append(data.QueueDatas, route.QueueData{BrokerName: parts[0], ReadQueueNums: int32(n), WriteQueueNums: int32(n), Perm: int32(perm)})
		}
		alloc, err := allocateQueues(fields[0], javaSplit(fields[1], ","), data)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		got, err := alloc.javaJSON()
		if err != nil {
			t.Fatal(err)
		}
		if got != lines[i] {
			t.Errorf("case %q:\n got %s\nwant %s", c, got, lines[i])
		}
	}
}

func TestAllocateRefusalsAreJavas(t *testing.T) {
	data := &route.TopicRouteData{QueueDatas: []route.QueueData{{BrokerName: "b", ReadQueueNums: 2, Perm: 6}}}
	if _, err := allocateQueues("T", javaSplit("a,,b", ","), data); !errors.Is(err, errEmptyClientID) {
		t.Errorf("empty id: %v", err)
	}
	writeOnly := &route.TopicRouteData{QueueDatas: []route.QueueData{{BrokerName: "b", ReadQueueNums: 2, Perm: 2}}}
	if _, err := allocateQueues("T", []string{"a"}, writeOnly); !errors.Is(err, errNoQueues) {
		t.Errorf("no readable queue: %v", err)
	}
	if got := javaSplit("a,b,,", ","); strings.Join(got, "|") != "a|b" {
		t.Errorf("javaSplit trailing: %q", got)
	}
}
