package admin

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// MessageQueue is one queue of a topic on a broker (Java MessageQueue); it
// sorts as Java's compareTo: topic, broker name, queue id.
type MessageQueue struct {
	BrokerName string `json:"brokerName"`
	QueueID    int32  `json:"queueId"`
	Topic      string `json:"topic"`
}

// Compare orders queues as Java's MessageQueue.compareTo.
func (q MessageQueue) Compare(o MessageQueue) int {
	if c := strings.Compare(q.Topic, o.Topic); c != 0 {
		return c
	}
	if c := strings.Compare(q.BrokerName, o.BrokerName); c != 0 {
		return c
	}
	return cmp.Compare(q.QueueID, o.QueueID)
}

// TopicOffset is one queue's offsets in GET_TOPIC_STATS_INFO.
type TopicOffset struct {
	LastUpdateTimestamp int64 `json:"lastUpdateTimestamp"`
	MaxOffset           int64 `json:"maxOffset"`
	MinOffset           int64 `json:"minOffset"`
}

// TopicStatsTable is the GET_TOPIC_STATS_INFO answer (Java TopicStatsTable).
type TopicStatsTable struct {
	OffsetTable map[MessageQueue]TopicOffset
	TopicPutTps float64
}

// OffsetWrapper is one queue of a group's progress in GET_CONSUME_STATS.
type OffsetWrapper struct {
	BrokerOffset   int64 `json:"brokerOffset"`
	ConsumerOffset int64 `json:"consumerOffset"`
	LastTimestamp  int64 `json:"lastTimestamp"`
	PullOffset     int64 `json:"pullOffset"`
}

// ConsumeStats is the GET_CONSUME_STATS answer (Java ConsumeStats).
type ConsumeStats struct {
	OffsetTable map[MessageQueue]OffsetWrapper
	ConsumeTps  float64
}

// Encode writes fastjson's form, whose offsetTable has object keys (not
// valid JSON, but what Java clients read): queues in Java's sort order,
// where Java writes hash order.
func (t TopicStatsTable) Encode() ([]byte, error) {
	b, err := appendQueueTable([]byte(`{"offsetTable":`), t.OffsetTable)
	if err != nil {
		return nil, err
	}
	return append(append(append(b, `,"topicPutTps":`...), javaDouble(t.TopicPutTps)...), '}'), nil
}

// Encode writes fastjson's form, as TopicStatsTable.Encode.
func (s ConsumeStats) Encode() ([]byte, error) {
	b := append([]byte(`{"consumeTps":`), javaDouble(s.ConsumeTps)...)
	b, err := appendQueueTable(append(b, `,"offsetTable":`...), s.OffsetTable)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// DecodeTopicStatsTable reads a GET_TOPIC_STATS_INFO body.
func DecodeTopicStatsTable(body []byte) (TopicStatsTable, error) {
	var raw struct {
		OffsetTable map[string]TopicOffset `json:"offsetTable"`
		TopicPutTps float64                `json:"topicPutTps"`
	}
	if err := decodeObjectKeyed(body, &raw); err != nil {
		return TopicStatsTable{}, fmt.Errorf("decode topic stats: %w", err)
	}
	table, err := queueKeyed(raw.OffsetTable)
	return TopicStatsTable{OffsetTable: table, TopicPutTps: raw.TopicPutTps}, err
}

// DecodeConsumeStats reads a GET_CONSUME_STATS body.
func DecodeConsumeStats(body []byte) (ConsumeStats, error) {
	var raw struct {
		ConsumeTps  float64                  `json:"consumeTps"`
		OffsetTable map[string]OffsetWrapper `json:"offsetTable"`
	}
	if err := decodeObjectKeyed(body, &raw); err != nil {
		return ConsumeStats{}, fmt.Errorf("decode consume stats: %w", err)
	}
	table, err := queueKeyed(raw.OffsetTable)
	return ConsumeStats{OffsetTable: table, ConsumeTps: raw.ConsumeTps}, err
}

func appendQueueTable[V any](b []byte, table map[MessageQueue]V) ([]byte, error) {
	b = append(b, '{')
	for i, mq := range slices.SortedFunc(maps.Keys(table), MessageQueue.Compare) {
		if i > 0 {
			b = append(b, ',')
		}
		key, err := json.Marshal(mq)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(table[mq])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, key...), ':'), value...)
	}
	return append(b, '}'), nil
}

// javaDouble is a double as fastjson writes it: 0.0, 1.5, never a bare 0.
func javaDouble(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eEN") {
		s += ".0"
	}
	return s
}

// queueKeyed turns the quoted object keys back into queues.
func queueKeyed[V any](raw map[string]V) (map[MessageQueue]V, error) {
	table := make(map[MessageQueue]V, len(raw))
	for key, v := range raw {
		var mq MessageQueue
		if err := json.Unmarshal([]byte(key), &mq); err != nil {
			return nil, fmt.Errorf("queue key %.80q: %w", key, err)
		}
		table[mq] = v
	}
	return table, nil
}

// errUnbalanced marks a body whose brackets or strings do not close.
var errUnbalanced = errors.New("unbalanced JSON")

// decodeObjectKeyed decodes fastjson text whose maps may have object keys:
// each such key is first rewritten as a JSON string holding its text.
func decodeObjectKeyed(body []byte, v any) error {
	text, err := quoteObjectKeys(body)
	if err != nil {
		return err
	}
	return json.Unmarshal(text, v)
}

// quoteObjectKeys rewrites every object in key position as a string.
func quoteObjectKeys(b []byte) ([]byte, error) {
	type frame struct{ object, expectKey bool }
	var stack []frame
	out := make([]byte, 0, len(b)+len(b)/4)
	for i := 0; i < len(b); {
		c := b[i]
		inKey := len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].expectKey
		switch c {
		case '"':
			end, err := skipJSONString(b, i)
			if err != nil {
				return nil, err
			}
			out = append(out, b[i:end]...)
			if inKey {
				stack[len(stack)-1].expectKey = false
			}
			i = end
			continue
		case '{':
			if inKey {
				end, err := skipJSONObject(b, i)
				if err != nil {
					return nil, err
				}
				quoted, _ := json.Marshal(string(b[i:end]))
				out = append(out, quoted...)
				stack[len(stack)-1].expectKey = false
				i = end
				continue
			}
			stack = append(stack, frame{object: true, expectKey: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			if len(stack) == 0 {
				return nil, errUnbalanced
			}
			stack = stack[:len(stack)-1]
		case ',':
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].expectKey = true
			}
		}
		out = append(out, c)
		i++
	}
	if len(stack) != 0 {
		return nil, errUnbalanced
	}
	return out, nil
}

// skipJSONString returns the index after the string starting at b[i].
func skipJSONString(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errUnbalanced
}

// skipJSONObject returns the index after the object starting at b[i].
func skipJSONObject(b []byte, i int) (int, error) {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			end, err := skipJSONString(b, j)
			if err != nil {
				return 0, err
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1, nil
			}
		}
	}
	return 0, errUnbalanced
}
