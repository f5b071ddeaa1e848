package topicconfig

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/route"
)

// fixedClock returns a clock that advances one second per call, so each
// version bump gets a distinct timestamp without sleeping.
func fixedClock() func() time.Time {
	t := time.UnixMilli(1_700_000_000_000)
	return func() time.Time {
		t = t.Add(time.Second)
		return t
	}
}

func TestStorePutBumpsVersionOnlyOnChange(t *testing.T) {
	s := NewStore(nil, SystemTopics(DefaultSystemTopicOptions("C", "b")), fixedClock())
	start := s.DataVersion()
	tc := route.NewTopicConfig("T1")
	tc.ReadQueueNums, tc.WriteQueueNums = 4, 4
	changed, err := s.Put(tc)
	if err != nil || !changed {
		t.Fatalf("Put new topic: changed=%v err=%v", changed, err)
	}
	v1 := s.DataVersion()
	if v1.Counter != start.Counter+1 || v1.Timestamp <= start.Timestamp {
		t.Fatalf("version after Put = %+v, want counter %d and a later timestamp than %+v", v1, start.Counter+1, start)
	}
	changed, err = s.Put(tc)
	if err != nil || changed {
		t.Fatalf("Put same config again: changed=%v err=%v, want unchanged", changed, err)
	}
	if s.DataVersion() != v1 {
		t.Fatalf("identical Put bumped the version: %+v -> %+v", v1, s.DataVersion())
	}
	got, ok := s.Get("T1")
	if !ok || got.ReadQueueNums != 4 {
		t.Fatalf("Get(T1) = %+v, %v", got, ok)
	}
}

func TestStoreCopiesAttributes(t *testing.T) {
	s := NewStore(nil, nil, fixedClock())
	tc := route.NewTopicConfig("T")
	tc.Attributes = map[string]string{"+a": "1"}
	if _, err := s.Put(tc); err != nil {
		t.Fatal(err)
	}
	tc.Attributes["+a"] = "changed by caller"
	got, _ := s.Get("T")
	if got.Attributes["+a"] != "1" {
		t.Fatalf("stored attributes alias the caller's map: %v", got.Attributes)
	}
}

func TestStoreDeleteAndMarkOrder(t *testing.T) {
	s := NewStore(nil, nil, fixedClock())
	for _, name := range []string{"A", "B"} {
		if _, err := s.Put(route.NewTopicConfig(name)); err != nil {
			t.Fatal(err)
		}
	}
	if changed, _ := s.MarkOrder([]string{"A", "missing"}); !changed {
		t.Fatal("MarkOrder(A) reported no change")
	}
	if a, _ := s.Get("A"); !a.Order {
		t.Fatal("A is not ordered after MarkOrder")
	}
	if changed, _ := s.MarkOrder([]string{"A"}); changed {
		t.Fatal("MarkOrder of an ordered topic reported a change")
	}
	if deleted, _ := s.Delete("B"); !deleted {
		t.Fatal("Delete(B) reported nothing deleted")
	}
	if deleted, _ := s.Delete("B"); deleted {
		t.Fatal("second Delete(B) reported a deletion")
	}
	if s.Len() != 1 {
		t.Fatalf("Len = %d, want 1", s.Len())
	}
}

func TestStoreReplaceAll(t *testing.T) {
	s := NewStore(nil, nil, fixedClock())
	if _, err := s.Put(route.NewTopicConfig("Old")); err != nil {
		t.Fatal(err)
	}
	master := map[string]route.TopicConfig{"New": route.NewTopicConfig("New")}
	changed, err := s.ReplaceAll(master)
	if err != nil || !changed {
		t.Fatalf("ReplaceAll: changed=%v err=%v", changed, err)
	}
	if _, ok := s.Get("Old"); ok {
		t.Error("topic missing on the master survived ReplaceAll")
	}
	if _, ok := s.Get("New"); !ok {
		t.Error("master topic missing after ReplaceAll")
	}
	if changed, _ := s.ReplaceAll(master); changed {
		t.Error("ReplaceAll with the same table reported a change")
	}
}

func TestStoreIsSystemTopic(t *testing.T) {
	s := NewStore(nil, SystemTopics(DefaultSystemTopicOptions("MyCluster", "broker-x")), nil)
	for _, name := range []string{"TBW102", "MyCluster", "broker-x", "SCHEDULE_TOPIC_XXXX", "rmq_sys_anything", "TRANS_CHECK_MAX_TIME_TOPIC"} {
		if !s.IsSystemTopic(name) {
			t.Errorf("IsSystemTopic(%q) = false", name)
		}
	}
	if s.IsSystemTopic("orders") {
		t.Error("IsSystemTopic(orders) = true")
	}
}
