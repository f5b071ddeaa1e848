package route

import (
	"reflect"
	"testing"
)

func TestEncodeTopicConfigSerializeWrapperSpecExample(t *testing.T) {
	w := &TopicConfigSerializeWrapper{
		DataVersion:      DataVersion{Counter: 5, Timestamp: 1700000000000},
		TopicConfigTable: map[string]TopicConfig{"TopicA": {TopicName: "TopicA", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
	}
	want := `{"dataVersion":{"counter":5,"stateVersion":0,"timestamp":1700000000000},"topicConfigTable":{"TopicA":{"attributes":{},` +
		`"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"TopicA","topicSysFlag":0,` +
		`"writeQueueNums":4}}}`
	got := EncodeTopicConfigSerializeWrapper(nil, w)
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	back, err := DecodeTopicConfigSerializeWrapper(got)
	if err != nil {
		t.Fatal(err)
	}
	w.TopicConfigTable["TopicA"] = NewTopicConfig("TopicA")
	tc := w.TopicConfigTable["TopicA"]
	tc.ReadQueueNums, tc.WriteQueueNums = 4, 4
	w.TopicConfigTable["TopicA"] = tc
	if !reflect.DeepEqual(back, w) {
		t.Fatalf("round trip: got %+v, want %+v", back, w)
	}
}

func TestDecodeTopicConfigDefaults(t *testing.T) {
	w, err := DecodeTopicConfigSerializeWrapper([]byte(`{"topicConfigTable":{"K":{"topicName":"T","attributes":{"a":"b"},"topicFilterType":"MULTI_TAG","order":true,"topicSysFlag":3},"E":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]TopicConfig{
		"K": {TopicName: "T", ReadQueueNums: 16, WriteQueueNums: 16, Perm: 6, TopicFilterType: "MULTI_TAG",
			TopicSysFlag: 3, Order: true, Attributes: map[string]string{"a": "b"}},
		"E": {ReadQueueNums: 16, WriteQueueNums: 16, Perm: 6, TopicFilterType: "SINGLE_TAG"},
	}
	if !reflect.DeepEqual(w.TopicConfigTable, want) {
		t.Fatalf("got %+v\nwant %+v", w.TopicConfigTable, want)
	}
	if w.DataVersion != (DataVersion{}) || w.TopicQueueMappingInfoMap != nil {
		t.Fatalf("missing dataVersion/mappings: %+v", w)
	}
}

func TestTopicConfigTextForm(t *testing.T) {
	tests := []struct {
		tc   TopicConfig
		text string
	}{
		{TopicConfig{TopicName: "TopicA", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}, "TopicA 4 4 6 SINGLE_TAG {}"},
		{TopicConfig{TopicName: "TopicB", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6, TopicFilterType: "SINGLE_TAG",
			Attributes: map[string]string{"+message.type": "FIFO"}}, `TopicB 8 8 6 SINGLE_TAG {"+message.type":"FIFO"}`},
	}
	for _, tt := range tests {
		if got := string(appendTopicConfigText(nil, &tt.tc)); got != tt.text {
			t.Errorf("encode: got %q, want %q", got, tt.text)
		}
		got, err := parseTopicConfigText(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		want := tt.tc
		want.TopicFilterType = TopicFilterSingleTag
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decode %q: got %+v, want %+v", tt.text, got, want)
		}
	}
}

func TestParseTopicConfigTextJavaRules(t *testing.T) {
	// Attributes with a space split into pieces: the JSON fails and is dropped.
	tc, err := parseTopicConfigText(`T 1 2 7 MULTI_TAG {"a":"x y"}`)
	if err != nil {
		t.Fatal(err)
	}
	if tc.Attributes != nil || tc.Perm != 7 || tc.WriteQueueNums != 2 || tc.TopicFilterType != TopicFilterMultiTag {
		t.Fatalf("got %+v", tc)
	}
	// Trailing separators are dropped, as String.split does (attributes null).
	if tc, err := parseTopicConfigText("T 1 1 6 SINGLE_TAG "); err != nil || tc.TopicName != "T" {
		t.Fatalf("got %+v, %v", tc, err)
	}
	for _, bad := range []string{"", "T 1 1 6", "T x 1 6 SINGLE_TAG", "T 1  1 6 SINGLE_TAG", "T 1 1 6 OTHER", "T 1 1 99999999999 SINGLE_TAG"} {
		if _, err := parseTopicConfigText(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
