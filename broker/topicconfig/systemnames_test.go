package topicconfig

import (
	"slices"
	"testing"
)

func TestSystemTopicNamesListsDefaultsAndStaticNames(t *testing.T) {
	s := NewStore(nil, SystemTopics(DefaultSystemTopicOptions("C", "b")), nil)
	names := s.SystemTopicNames()
	for _, want := range []string{"TBW102", "C", "b", ScheduleTopic, "CHECKPOINT_TOPIC"} {
		if !slices.Contains(names, want) {
			t.Errorf("%s missing from %v", want, names)
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("not sorted: %v", names)
	}
}
