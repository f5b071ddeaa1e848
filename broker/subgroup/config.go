// Package subgroup is the broker's subscription group table (Java's
// SubscriptionGroupManager): the group configs mqadmin updateSubGroup and
// deleteSubGroup change, their DataVersion, and subscriptionGroup.json in the
// Java file format.
package subgroup

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
)

// Config is one subscription group (Java SubscriptionGroupConfig). The
// fields are declared in fastjson's order (sorted by name), so the JSON
// encoder writes them as a Java broker does.
type Config struct {
	Attributes                     map[string]string `json:"attributes"`
	BrokerID                       int64             `json:"brokerId"`
	ConsumeBroadcastEnable         bool              `json:"consumeBroadcastEnable"`
	ConsumeEnable                  bool              `json:"consumeEnable"`
	ConsumeFromMinEnable           bool              `json:"consumeFromMinEnable"`
	ConsumeMessageOrderly          bool              `json:"consumeMessageOrderly"`
	ConsumeTimeoutMinute           int32             `json:"consumeTimeoutMinute"`
	GroupName                      string            `json:"groupName"`
	GroupRetryPolicy               RetryPolicy       `json:"groupRetryPolicy"`
	GroupSysFlag                   int32             `json:"groupSysFlag"`
	NotifyConsumerIdsChangedEnable bool              `json:"notifyConsumerIdsChangedEnable"`
	RetryMaxTimes                  int32             `json:"retryMaxTimes"`
	RetryQueueNums                 int32             `json:"retryQueueNums"`
	// SubscriptionDataSet is kept as the client sent it: a route-only
	// broker never reads it.
	SubscriptionDataSet          json.RawMessage `json:"subscriptionDataSet,omitempty"`
	WhichBrokerWhenConsumeSlowly int64           `json:"whichBrokerWhenConsumeSlowly"`
}

// RetryPolicy is Java's GroupRetryPolicy; absent policies are left out of
// the JSON, as fastjson leaves out nulls.
type RetryPolicy struct {
	CustomizedRetryPolicy  *CustomizedRetryPolicy  `json:"customizedRetryPolicy,omitempty"`
	ExponentialRetryPolicy *ExponentialRetryPolicy `json:"exponentialRetryPolicy,omitempty"`
	Type                   string                  `json:"type"`
}

// CustomizedRetryPolicy is a list of retry delays in milliseconds.
type CustomizedRetryPolicy struct {
	Next []int64 `json:"next"`
}

// ExponentialRetryPolicy is initial * multiplier^n milliseconds, at most max.
type ExponentialRetryPolicy struct {
	Initial    int64 `json:"initial"`
	Max        int64 `json:"max"`
	Multiplier int64 `json:"multiplier"`
}

// RetryPolicyCustomized is the default GroupRetryPolicy type.
const RetryPolicyCustomized = "CUSTOMIZED"

// NewConfig is a group with Java's SubscriptionGroupConfig defaults.
func NewConfig(name string) Config {
	return Config{
		Attributes: map[string]string{}, GroupName: name,
		ConsumeEnable: true, ConsumeFromMinEnable: true, ConsumeBroadcastEnable: true,
		RetryQueueNums: 1, RetryMaxTimes: 16, GroupRetryPolicy: RetryPolicy{Type: RetryPolicyCustomized},
		WhichBrokerWhenConsumeSlowly: 1, NotifyConsumerIdsChangedEnable: true, ConsumeTimeoutMinute: 15,
	}
}

// DecodeConfig reads a config as fastjson does: members missing from the
// text keep Java's defaults.
func DecodeConfig(body []byte) (Config, error) {
	c := NewConfig("")
	if err := json.Unmarshal(body, &c); err != nil {
		return Config{}, fmt.Errorf("decode subscription group config: %w", err)
	}
	if c.Attributes == nil {
		c.Attributes = map[string]string{}
	}
	return c, nil
}

// Encode writes the compact JSON a Java client sends and a Java broker
// stores.
func (c Config) Encode() ([]byte, error) { return jsonesc.Marshal(c) }

// String is Java's SubscriptionGroupConfig.toString (Guava's
// toStringHelper), which mqadmin updateSubGroup prints. The attribute map is
// printed with sorted keys, where Java prints hash order.
func (c Config) String() string {
	dataSet := "null"
	if len(c.SubscriptionDataSet) > 0 && string(c.SubscriptionDataSet) != "null" {
		dataSet = string(c.SubscriptionDataSet)
	}
	return "SubscriptionGroupConfig{groupName=" + c.GroupName +
		", consumeEnable=" + strconv.FormatBool(c.ConsumeEnable) +
		", consumeFromMinEnable=" + strconv.FormatBool(c.ConsumeFromMinEnable) +
		", consumeBroadcastEnable=" + strconv.FormatBool(c.ConsumeBroadcastEnable) +
		", consumeMessageOrderly=" + strconv.FormatBool(c.ConsumeMessageOrderly) +
		", retryQueueNums=" + strconv.Itoa(int(c.RetryQueueNums)) +
		", retryMaxTimes=" + strconv.Itoa(int(c.RetryMaxTimes)) +
		", groupRetryPolicy=" + c.GroupRetryPolicy.String() +
		", brokerId=" + strconv.FormatInt(c.BrokerID, 10) +
		", whichBrokerWhenConsumeSlowly=" + strconv.FormatInt(c.WhichBrokerWhenConsumeSlowly, 10) +
		", notifyConsumerIdsChangedEnable=" + strconv.FormatBool(c.NotifyConsumerIdsChangedEnable) +
		", groupSysFlag=" + strconv.Itoa(int(c.GroupSysFlag)) +
		", consumeTimeoutMinute=" + strconv.Itoa(int(c.ConsumeTimeoutMinute)) +
		", subscriptionDataSet=" + dataSet +
		", attributes=" + javaMap(c.Attributes) + "}"
}

// String is Java's GroupRetryPolicy.toString.
func (p RetryPolicy) String() string {
	custom, exp := "null", "null"
	if p.CustomizedRetryPolicy != nil {
		next := make([]string, len(p.CustomizedRetryPolicy.Next))
		for i, n := range p.CustomizedRetryPolicy.Next {
			next[i] = strconv.FormatInt(n, 10)
		}
		custom = "CustomizedRetryPolicy{next=[" + strings.Join(next, ", ") + "]}"
	}
	if e := p.ExponentialRetryPolicy; e != nil {
		exp = fmt.Sprintf("ExponentialRetryPolicy{initial=%d, max=%d, multiplier=%d}", e.Initial, e.Max, e.Multiplier)
	}
	typ := p.Type
	if typ == "" {
		typ = "null"
	}
	return "GroupRetryPolicy{type=" + typ + ", exponentialRetryPolicy=" + exp + ", customizedRetryPolicy=" + custom + "}"
}

// javaMap renders a map like Java's AbstractMap.toString, keys sorted.
func javaMap(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
