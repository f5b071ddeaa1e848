package admin

import "testing"

// javaTopicStats is a GET_TOPIC_STATS_INFO body as a Java 5.3.3 broker
// writes it: fastjson with object keys.
const javaTopicStats = `{"offsetTable":{{"brokerName":"broker-a","queueId":1,"topic":"T"}:{"lastUpdateTimestamp":1700000000123,"maxOffset":3,"minOffset":0},{"brokerName":"broker-a","queueId":0,"topic":"T"}:{"lastUpdateTimestamp":0,"maxOffset":0,"minOffset":0}},"topicPutTps":0.0}`

func TestDecodeJavaTopicStats(t *testing.T) {
	table, err := DecodeTopicStatsTable([]byte(javaTopicStats))
	if err != nil {
		t.Fatal(err)
	}
	got := table.OffsetTable[MessageQueue{Topic: "T", BrokerName: "broker-a", QueueID: 1}]
	if len(table.OffsetTable) != 2 || got.MaxOffset != 3 || got.LastUpdateTimestamp != 1700000000123 {
		t.Fatalf("decoded %+v", table)
	}
	again, err := table.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"offsetTable":{{"brokerName":"broker-a","queueId":0,"topic":"T"}:{"lastUpdateTimestamp":0,"maxOffset":0,"minOffset":0},{"brokerName":"broker-a","queueId":1,"topic":"T"}:{"lastUpdateTimestamp":1700000000123,"maxOffset":3,"minOffset":0}},"topicPutTps":0.0}`
	if string(again) != want {
		t.Fatalf("encoded\n%s\nwant\n%s", again, want)
	}
}

func TestConsumeStatsRoundTrip(t *testing.T) {
	in := ConsumeStats{ConsumeTps: 1.5, OffsetTable: map[MessageQueue]OffsetWrapper{
		{Topic: "%RETRY%G", BrokerName: "b", QueueID: 0}: {BrokerOffset: 9, ConsumerOffset: 4, PullOffset: 5, LastTimestamp: 7},
	}}
	body, err := in.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"consumeTps":1.5,"offsetTable":{{"brokerName":"b","queueId":0,"topic":"%RETRY%G"}:{"brokerOffset":9,"consumerOffset":4,"lastTimestamp":7,"pullOffset":5}}}`; string(body) != want {
		t.Fatalf("encoded %s", body)
	}
	out, err := DecodeConsumeStats(body)
	if err != nil || out.ConsumeTps != 1.5 || len(out.OffsetTable) != 1 {
		t.Fatalf("%+v %v", out, err)
	}
}

func TestDecodeObjectKeyedRefusesBrokenText(t *testing.T) {
	for _, text := range []string{`{"offsetTable":{{"topic":"T"`, `{"a":"unterminated}`, `}}`, `{"offsetTable":{{"x":1}:}}`} {
		if _, err := DecodeTopicStatsTable([]byte(text)); err == nil {
			t.Errorf("%s decoded", text)
		}
	}
}
