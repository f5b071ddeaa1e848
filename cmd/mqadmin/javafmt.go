package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/route"
)

// javaStringMap renders a map like Java's AbstractMap.toString: {k=v, k2=v2}.
// Keys are sorted, where Java prints hash order.
func javaStringMap(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// javaAddrMap renders a broker id -> address map like Java: {0=ip:port, 1=ip:port}.
func javaAddrMap(m map[int64]string) string {
	parts := make([]string, 0, len(m))
	for _, id := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d=%s", id, m[id]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// topicConfigText is Java's TopicConfig.toString, which updateTopic prints.
// attributes are the prefixed modification map the command sent.
func topicConfigText(tc route.TopicConfig) string {
	return fmt.Sprintf("TopicConfig [topicName=%s, readQueueNums=%d, writeQueueNums=%d, perm=%s, topicFilterType=%s, topicSysFlag=%d, order=%t, attributes=%s]",
		tc.TopicName, tc.ReadQueueNums, tc.WriteQueueNums, route.PermString(tc.Perm), tc.TopicFilterType, tc.TopicSysFlag, tc.Order, javaStringMap(tc.Attributes))
}

// frontStringAtLeast cuts s to at most n characters (Java UtilAll.frontStringAtLeast).
func frontStringAtLeast(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
