package main

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestSelectBrokerAddrPrefersMaster(t *testing.T) {
	if got := selectBrokerAddr(route.BrokerData{BrokerAddrs: map[int64]string{2: "s2", 0: "m", 1: "s1"}}); got != "m" {
		t.Errorf("with a master: %q", got)
	}
	if got := selectBrokerAddr(route.BrokerData{BrokerAddrs: map[int64]string{2: "s2", 1: "s1"}}); got != "s1" {
		t.Errorf("slaves only: %q", got)
	}
	if got := selectBrokerAddr(route.BrokerData{}); got != "" {
		t.Errorf("no address: %q", got)
	}
}

func TestPartialResult(t *testing.T) {
	var partial *partialFailure
	if partialResult(0, 3, "brokers") != nil || !errors.As(partialResult(1, 3, "brokers"), &partial) {
		t.Fatal("partialResult")
	}
}

func TestTopicStatusTableIsJavas(t *testing.T) {
	var out bytes.Buffer
	stamp := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.Local).UnixMilli()
	table := admin.TopicStatsTable{OffsetTable: map[admin.MessageQueue]admin.TopicOffset{
		{Topic: "T", BrokerName: "b", QueueID: 1}: {MinOffset: 1, MaxOffset: 9, LastUpdateTimestamp: stamp},
		{Topic: "T", BrokerName: "a", QueueID: 0}: {},
	}, TopicPutTps: 3}
	if err := printTopicStatus(&env{out: &out}, "T", table); err != nil {
		t.Fatal(err)
	}
	want := "#Broker Name                      #QID  #Min Offset           #Max Offset             #Last Updated\n" +
		"a                                 0     0                     0                       \n" +
		"b                                 1     1                     9                       2026-01-02 03:04:05,006\n" +
		"\nTopic Put TPS: 0.0\n"
	if out.String() != want {
		t.Fatalf("table:\n%s\nwant\n%s", out.String(), want)
	}
}
