package subgroup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/route"
)

func TestFileIsJavaPrettyFormatWithBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	f := NewFile(path)
	w := Wrapper{Groups: map[string]Config{"G": NewConfig("G")}, DataVersion: route.DataVersion{Counter: 2, Timestamp: 5}}
	if err := f.Write(w); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(text), "{\n\t\"dataVersion\":{\n\t\t\"counter\":2,") || !strings.Contains(string(text), "\t\"forbiddenTable\":{},\n\t\"subscriptionGroupTable\":{\n\t\t\"G\":{") {
		t.Fatalf("not fastjson's pretty format:\n%s", text)
	}
	w.DataVersion.Counter = 3
	if err := f.Write(w); err != nil {
		t.Fatal(err)
	}
	if bak, _ := os.ReadFile(path + backupSuffix); string(bak) != string(text) {
		t.Fatal("the previous file was not kept as the backup")
	}
	if err := os.WriteFile(path, []byte("{corrupt"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, found, err := f.Read()
	if err != nil || !found || got.DataVersion.Counter != 2 {
		t.Fatalf("corrupt file did not fall back to the backup: %+v %v %v", got.DataVersion, found, err)
	}
	if err := os.WriteFile(path+backupSuffix, []byte("{corrupt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Read(); !errors.Is(err, ErrCorruptFile) {
		t.Fatalf("both corrupt: %v", err)
	}
}

func TestDecodeJavaBrokerAnswer(t *testing.T) {
	// A GET_ALL_SUBSCRIPTIONGROUP_CONFIG body as a Java 5.3.3 broker sends it
	// (one group, a forbidden entry, which is ignored).
	body := `{"dataVersion":{"counter":7,"stateVersion":0,"timestamp":1700000000000},"forbiddenTable":{"G":{"T":1}},"subscriptionGroupTable":{"G":` + javaDefaultGroupJSON + `}}`
	w, err := DecodeWrapper([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if w.DataVersion.Counter != 7 || w.Groups["G"].RetryQueueNums != 1 || !w.Groups["G"].ConsumeEnable {
		t.Fatalf("decoded %+v", w)
	}
	again, err := EncodeWrapper(w)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"dataVersion":{"counter":7,"stateVersion":0,"timestamp":1700000000000},"forbiddenTable":{},"subscriptionGroupTable":{"G":` + javaDefaultGroupJSON + `}}`; string(again) != want {
		t.Fatalf("re-encoded:\n%s\nwant\n%s", again, want)
	}
}
