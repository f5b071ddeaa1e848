package topicconfig

import (
	"path/filepath"
	"testing"
)

func TestNextVersionBumpsAndPersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "topics.json")
	s := NewStore(NewFile(path), nil, nil)
	before := s.DataVersion()
	if err := s.NextVersion(); err != nil {
		t.Fatal(err)
	}
	if got := s.DataVersion(); got.Counter != before.Counter+1 {
		t.Fatalf("version %+v after %+v, want the counter bumped", got, before)
	}
	reloaded := NewStore(NewFile(path), nil, nil)
	if err := reloaded.Load(); err != nil {
		t.Fatal(err)
	}
	if reloaded.DataVersion() != s.DataVersion() {
		t.Fatalf("reloaded version %+v, want %+v", reloaded.DataVersion(), s.DataVersion())
	}
}
