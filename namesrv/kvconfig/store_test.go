package kvconfig

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/javafixture"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// openTemp opens a store on a fresh file in a test directory.
func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "namesrv", "kvConfig.json"), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// kvFields are the ext fields of a KV request header.
type kvFields struct {
	ExtFields struct {
		Namespace string  `json:"namespace"`
		Key       string  `json:"key"`
		Value     *string `json:"value"`
	} `json:"extFields"`
}

// loadFixture reads the recorded exchange numbered name and the KV fields of
// its request header.
func loadFixture(t *testing.T, name string) (*javafixture.Exchange, kvFields) {
	t.Helper()
	f, err := javafixture.Load("testdata", name)
	if err != nil {
		t.Fatal(err)
	}
	if f.Response == nil {
		t.Fatalf("fixture %s has no response", name)
	}
	var h kvFields
	if err := json.Unmarshal([]byte(f.Request.Header), &h); err != nil {
		t.Fatal(err)
	}
	return f, h
}

// TestJavaScenario replays the KV part of the recorded Java exchanges against
// the store and compares the KVTable bodies byte for byte.
func TestJavaScenario(t *testing.T) {
	const (
		putKVConfig          = 100
		deleteKVConfig       = 102
		getKVListByNamespace = 219
	)
	s := openTemp(t)
	for _, name := range []string{"016", "034", "035", "040", "041", "043", "044", "045", "047"} {
		f, h := loadFixture(t, name)
		ns, key := h.ExtFields.Namespace, h.ExtFields.Key
		switch f.Request.Code {
		case putKVConfig:
			if err := s.Put(ns, key, *h.ExtFields.Value); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got, ok := s.Get(ns, key); !ok || got != *h.ExtFields.Value {
				t.Fatalf("%s: Get = %q %v after put", name, got, ok)
			}
		case deleteKVConfig:
			if err := s.Delete(ns, key); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, ok := s.Get(ns, key); ok {
				t.Fatalf("%s: key still present after delete", name)
			}
		case getKVListByNamespace:
			body, ok := s.KVTableJSON(ns)
			if !ok || string(body) != *f.Response.BodyText {
				t.Fatalf("%s: KVTableJSON = %s %v, want %s", name, body, ok, *f.Response.BodyText)
			}
		default:
			t.Fatalf("%s: unexpected request code %d", name, f.Request.Code)
		}
	}
}

func TestPersistAndReopen(t *testing.T) {
	s := openTemp(t)
	puts := []struct{ ns, key, value string }{
		{OrderTopicConfigNamespace, "TopicOrder", "broker-a:4;broker-b:4"},
		{"ns", "empty", ""},
		{"ns", "quote\"back\\slash", "line\nbreak\ttab"},
		{"ns", "utf8", "größe=√2 名前 😀"},
		{"ns", "utf8", "replaced"},
	}
	for _, p := range puts {
		if err := s.Put(p.ns, p.key, p.value); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete("gone", "x"); err != nil {
		t.Fatal(err)
	}
	content, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:4;broker-b:4"},` +
		`"ns":{"empty":"","quote\"back\\slash":"line\nbreak\ttab","utf8":"replaced"}}}`
	if string(content) != want {
		t.Fatalf("file =\n%s\nwant\n%s", content, want)
	}
	reopened, err := Open(s.Path(), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range []string{OrderTopicConfigNamespace, "ns"} {
		a, _ := s.Namespace(ns)
		b, ok := reopened.Namespace(ns)
		if !ok || len(a) != len(b) {
			t.Fatalf("namespace %s: reopened %v, had %v", ns, b, a)
		}
		for k, v := range a {
			if b[k] != v {
				t.Fatalf("namespace %s key %q: reopened %q, had %q", ns, k, b[k], v)
			}
		}
	}
	if _, ok := reopened.Namespace("gone"); ok {
		t.Fatal("Delete in a missing namespace created it")
	}
}

func TestDeleteKeepsEmptiedNamespace(t *testing.T) {
	s := openTemp(t)
	if err := s.Put("ns", "k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("ns", "k"); err != nil {
		t.Fatal(err)
	}
	kv, ok := s.Namespace("ns")
	if !ok || len(kv) != 0 {
		t.Fatalf("Namespace after deleting its last key = %v %v, want empty and present", kv, ok)
	}
	if body, ok := s.KVTableJSON("ns"); !ok || string(body) != `{"table":{}}` {
		t.Fatalf("KVTableJSON = %s %v", body, ok)
	}
	if _, ok := s.KVTableJSON("missing"); ok {
		t.Fatal("KVTableJSON of a missing namespace reported it present")
	}
}

func TestNamespaceReturnsACopy(t *testing.T) {
	s := openTemp(t)
	if err := s.Put("ns", "k", "v"); err != nil {
		t.Fatal(err)
	}
	kv, _ := s.Namespace("ns")
	kv["k"] = "changed"
	kv["new"] = "x"
	if got, _ := s.Get("ns", "k"); got != "v" {
		t.Fatalf("changing the copy changed the store: %q", got)
	}
	if _, ok := s.Get("ns", "new"); ok {
		t.Fatal("key added to the copy appeared in the store")
	}
}

func TestFailedWriteChangesNothing(t *testing.T) {
	// A file name of 245 bytes leaves no room for the temporary file's
	// suffix (NAME_MAX 255): every write fails before its rename, even for root.
	s, err := Open(filepath.Join(t.TempDir(), strings.Repeat("k", 245)), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(), []byte(`{"configTable":{"ns":{"k":"v1"}}}`), filePerm); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(s.Path(), testlog.Discard()); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put("ns", "k", "v2"); err == nil {
		t.Fatal("Put succeeded although the file cannot be written")
	}
	if err := s.Put("other", "k", "v"); err == nil {
		t.Fatal("Put of a new namespace succeeded although the file cannot be written")
	}
	if err := s.Delete("ns", "k"); err == nil {
		t.Fatal("Delete succeeded although the file cannot be written")
	}
	if got, _ := s.Get("ns", "k"); got != "v1" {
		t.Fatalf("memory changed by failed writes: %q", got)
	}
	if _, ok := s.Namespace("other"); ok {
		t.Fatal("a failed Put created its namespace in memory")
	}
	after, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Fatalf("file changed by failed writes: %s", after)
	}
}

func TestOpenCorruptFileRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kvConfig.json")
	if err := os.WriteFile(path, []byte(`{"configTable":{"ns":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, testlog.Discard()); !errors.Is(err, ErrCorruptFile) {
		t.Fatalf("Open of a torn file: err = %v, want ErrCorruptFile", err)
	}
}

func TestConcurrentReadersAndWriters(t *testing.T) {
	s := openTemp(t)
	const writers, putsEach = 4, 25
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if v, ok := s.Get(OrderTopicConfigNamespace, "w0-k0"); ok && v != "0" {
					t.Errorf("read %q, want 0", v)
					return
				}
				_, _ = s.KVTableJSON(OrderTopicConfigNamespace)
			}
		}()
	}
	var writersDone sync.WaitGroup
	for w := 0; w < writers; w++ {
		writersDone.Add(1)
		go func() {
			defer writersDone.Done()
			for i := 0; i < putsEach; i++ {
				key := "w" + strconv.Itoa(w) + "-k" + strconv.Itoa(i)
				if err := s.Put(OrderTopicConfigNamespace, key, strconv.Itoa(i)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	writersDone.Wait()
	close(stop)
	wg.Wait()
	kv, _ := s.Namespace(OrderTopicConfigNamespace)
	if len(kv) != writers*putsEach {
		t.Fatalf("%d keys after concurrent puts, want %d", len(kv), writers*putsEach)
	}
	reopened, err := Open(s.Path(), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	onDisk, _ := reopened.Namespace(OrderTopicConfigNamespace)
	if len(onDisk) != writers*putsEach {
		t.Fatalf("%d keys on disk, want %d: a later write lost an earlier one", len(onDisk), writers*putsEach)
	}
}

func BenchmarkGetOrderTopicConfig(b *testing.B) {
	s := openTemp(b)
	for i := 0; i < 100; i++ {
		if err := s.Put(OrderTopicConfigNamespace, "Topic"+strconv.Itoa(i), "broker-a:4"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, ok := s.Get(OrderTopicConfigNamespace, "Topic42"); !ok {
				b.Fatal("missing")
			}
		}
	})
}

func BenchmarkPut(b *testing.B) {
	s := openTemp(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Put("ns", "k"+strconv.Itoa(i%64), "v"); err != nil {
			b.Fatal(err)
		}
	}
}
