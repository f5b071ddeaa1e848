package topicconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/route"
)

func TestEncodeIsJavaPrettyFormat(t *testing.T) {
	tc := route.NewTopicConfig("TopicA")
	tc.ReadQueueNums, tc.WriteQueueNums = 4, 4
	text, err := Encode(route.TopicConfigSerializeWrapper{
		DataVersion:      route.DataVersion{Counter: 5, Timestamp: 1700000000000},
		TopicConfigTable: map[string]route.TopicConfig{"TopicA": tc},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n" +
		"\t\"dataVersion\":{\n\t\t\"counter\":5,\n\t\t\"stateVersion\":0,\n\t\t\"timestamp\":1700000000000\n\t},\n" +
		"\t\"topicConfigTable\":{\n\t\t\"TopicA\":{\n" +
		"\t\t\t\"attributes\":{},\n\t\t\t\"order\":false,\n\t\t\t\"perm\":6,\n\t\t\t\"readQueueNums\":4,\n" +
		"\t\t\t\"topicFilterType\":\"SINGLE_TAG\",\n\t\t\t\"topicName\":\"TopicA\",\n\t\t\t\"topicSysFlag\":0,\n" +
		"\t\t\t\"writeQueueNums\":4\n\t\t}\n\t}\n}"
	if string(text) != want {
		t.Errorf("Encode =\n%s\nwant\n%s", text, want)
	}
}

func TestStoreSurvivesRestart(t *testing.T) {
	path := TopicsFilePath(t.TempDir())
	defaults := SystemTopics(DefaultSystemTopicOptions("C", "b"))
	s := NewStore(NewFile(path), defaults, fixedClock())
	if err := s.Load(); err != nil {
		t.Fatalf("Load with no file: %v", err)
	}
	tc := route.NewTopicConfig("orders")
	tc.ReadQueueNums, tc.WriteQueueNums, tc.Order = 3, 5, true
	tc.Attributes = map[string]string{"+message.type": "FIFO"}
	if _, err := s.Put(tc); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(route.NewTopicConfig("second")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + backupSuffix); err != nil {
		t.Errorf("no backup after the second write: %v", err)
	}

	reloaded := NewStore(NewFile(path), defaults, fixedClock())
	if err := reloaded.Load(); err != nil {
		t.Fatal(err)
	}
	if reloaded.DataVersion() != s.DataVersion() {
		t.Errorf("version after restart = %+v, want %+v", reloaded.DataVersion(), s.DataVersion())
	}
	got, ok := reloaded.Get("orders")
	if !ok || got.ReadQueueNums != 3 || got.WriteQueueNums != 5 || !got.Order || got.Attributes["+message.type"] != "FIFO" {
		t.Errorf("orders after restart = %+v, %v", got, ok)
	}
	if reloaded.Len() != s.Len() {
		t.Errorf("topic count after restart = %d, want %d", reloaded.Len(), s.Len())
	}
}

func TestFileFallsBackToBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", TopicsFileName)
	f := NewFile(path)
	w := route.TopicConfigSerializeWrapper{
		DataVersion:      route.DataVersion{Counter: 1, Timestamp: 2},
		TopicConfigTable: map[string]route.TopicConfig{"A": route.NewTopicConfig("A")},
	}
	if err := f.Write(w); err != nil {
		t.Fatal(err)
	}
	w.DataVersion.Counter = 2
	if err := f.Write(w); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, found, err := f.Read()
	if err != nil || !found {
		t.Fatalf("Read with corrupt file: found=%v err=%v", found, err)
	}
	if got.DataVersion.Counter != 1 {
		t.Errorf("read counter %d from backup, want 1", got.DataVersion.Counter)
	}
}

func TestFileReportsCorruptionWithoutBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), TopicsFileName)
	if err := os.WriteFile(path, []byte("[1,2"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, found, err := NewFile(path).Read()
	if found || err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Read of a corrupt file = found %v, err %v; want an error naming the file", found, err)
	}
}
