package replicas

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

// A slave is in sync while its last heartbeat is recent and its offset is
// within the gap of the master's.
func TestSlaveTableInSync(t *testing.T) {
	s := newSlaveTable()
	now := time.Now()
	s.saw(2, 900, now)
	s.saw(3, 100, now)                    // too far behind
	s.saw(4, 1000, now.Add(-time.Minute)) // too old
	got := s.inSync(1000, 200, now.Add(-time.Second))
	slices.Sort(got)
	if !reflect.DeepEqual(got, []int64{2}) {
		t.Fatalf("in sync %v, want [2]", got)
	}
}

// The elect answer's brokerMemberGroup has unquoted long keys; only its
// syncStateSet is read.
func TestDecodeElectBody(t *testing.T) {
	body := []byte(`{"brokerMemberGroup":{"brokerAddrs":{1:"127.0.0.1:9000",2:"127.0.0.1:9001"},"brokerName":"b","cluster":"c"},"syncStateSet":[2,1]}`)
	got, err := decodeElectBody(body)
	if err != nil || !reflect.DeepEqual(got, []int64{1, 2}) {
		t.Fatalf("got %v %v", got, err)
	}
	for _, bad := range []string{`{}`, `{"syncStateSet":[1`, `{"syncStateSet":["x"]}`} {
		if _, err := decodeElectBody([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}
