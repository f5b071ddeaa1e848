package route

import (
	"reflect"
	"testing"
)

func TestEncodeTopicList(t *testing.T) {
	tests := []struct {
		list TopicList
		want string
	}{
		{TopicList{TopicList: []string{"TopicB", "TopicA"}}, `{"topicList":["TopicB","TopicA"]}`},
		{TopicList{TopicList: []string{"DefaultCluster", "broker-a"}, BrokerAddr: "192.168.0.1:10911"},
			`{"brokerAddr":"192.168.0.1:10911","topicList":["DefaultCluster","broker-a"]}`},
		{TopicList{}, `{"topicList":[]}`},
		{TopicList{TopicList: []string{"话题/x"}}, `{"topicList":["话题/x"]}`},
	}
	for _, tt := range tests {
		if got := string(EncodeTopicList(nil, &tt.list)); got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
	}
}

func TestTopicListFixturesRoundTrip(t *testing.T) {
	for _, fixture := range []string{"026", "029", "030"} {
		body := responseBody(t, fixture)
		l, err := DecodeTopicList(body)
		if err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		if got := EncodeTopicList(nil, l); string(got) != string(body) {
			t.Errorf("%s: got %s, want %s", fixture, got, body)
		}
	}
	l, err := DecodeTopicList(responseBody(t, "030"))
	if err != nil {
		t.Fatal(err)
	}
	want := &TopicList{BrokerAddr: "127.0.0.1:10931",
		TopicList: []string{"broker-b", "ClusterB", "broker-c", "broker-a", "DefaultCluster"}}
	if !reflect.DeepEqual(l, want) {
		t.Fatalf("got %+v", l)
	}
}
