package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestJavaOrderedObjectUsesHashMapOrder(t *testing.T) {
	got, err := javaOrderedObject([]string{"topicConfigTable", "subscriptionGroupTable", "exportTime"}, func(k string) ([]byte, error) { return []byte("0"), nil })
	if err != nil {
		t.Fatal(err)
	}
	// The key order of Java's HashMap for these three names.
	want := "{"
	for i, k := range javaHashOrderedKeys([]string{"topicConfigTable", "subscriptionGroupTable", "exportTime"}) {
		if i > 0 {
			want += ","
		}
		want += `"` + k + `":0`
	}
	if string(got) != want+"}" {
		t.Fatalf("%s, want %s}", got, want)
	}
}

func TestGroupWrapperFileIsPrettyJSON(t *testing.T) {
	text, err := encodeGroupWrapper(subgroup.Wrapper{Groups: map[string]subgroup.Config{"G": subgroup.NewConfig("G")}, DataVersion: route.DataVersion{Counter: 1}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sub", "subscriptionGroup.json")
	if err := writePrettyJSON(path, text); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(file), "{\n\t\"dataVersion\":{\n\t\t\"counter\":1,") || !strings.Contains(string(file), "\t\"subscriptionGroupTable\":{\n\t\t\"G\":{") ||
		strings.Contains(string(file), "forbiddenTable") {
		t.Fatalf("file:\n%s", file)
	}
}

func TestTopicConfigJSONIsFastjsonOrder(t *testing.T) {
	text, err := jsonesc.Marshal(topicConfigJSONOf(route.NewTopicConfig("T")))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"attributes":{},"order":false,"perm":6,"readQueueNums":16,"topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":16}`; string(text) != want {
		t.Fatalf("%s", text)
	}
}
