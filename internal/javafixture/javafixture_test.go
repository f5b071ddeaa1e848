package javafixture

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// corpusDir is the committed copy of the whole recorded corpus.
const corpusDir = "../../test/testdata/java-5.3.3"

func loadCorpus(t *testing.T) []*Exchange {
	t.Helper()
	exchanges, err := LoadAll(corpusDir)
	if err != nil {
		t.Fatalf("LoadAll: %v", err)
	}
	return exchanges
}

func TestLoadAllReadsEveryExchangeInNameOrder(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	var wantNames []string
	for _, entry := range entries {
		if name, ok := strings.CutSuffix(entry.Name(), ".json"); ok {
			wantNames = append(wantNames, name)
		}
	}
	slices.Sort(wantNames)
	exchanges := loadCorpus(t)
	gotNames := make([]string, len(exchanges))
	for i, exchange := range exchanges {
		gotNames[i] = exchange.Name
		if (exchange.Response == nil) != exchange.Request.Oneway {
			t.Errorf("%s: oneway %v but response nil is %v", exchange.Name, exchange.Request.Oneway, exchange.Response == nil)
		}
		if exchange.Request.CodeName == "" || exchange.Description == "" {
			t.Errorf("%s: codeName or description not read", exchange.Name)
		}
	}
	if len(wantNames) == 0 || !slices.Equal(gotNames, wantNames) {
		t.Fatalf("LoadAll names\n%v\nwant the file names in order\n%v", gotNames, wantNames)
	}
}

func TestLoadFindsEachExchangeByNumber(t *testing.T) {
	for _, want := range loadCorpus(t) {
		number, _, _ := strings.Cut(want.Name, "-")
		got, err := Load(corpusDir, number)
		if err != nil {
			t.Fatalf("Load %s: %v", number, err)
		}
		if got.Name != want.Name || got.Request.Header != want.Request.Header {
			t.Fatalf("Load %s gave %s, want %s", number, got.Name, want.Name)
		}
	}
}

func TestLoadRefusesMissingAmbiguousAndMalformedFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"001-first.json":  `{"name":"001-first"}`,
		"001-second.json": `{"name":"001-second"}`,
		"002-broken.json": `{"name":`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Load(dir, "001"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("two matches: err = %v, want ErrAmbiguous", err)
	}
	if _, err := Load(dir, "003"); !errors.Is(err, ErrNotFound) {
		t.Errorf("no match: err = %v, want ErrNotFound", err)
	}
	if _, err := Load(dir, "002"); err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous) {
		t.Errorf("malformed file: err = %v, want a parse error", err)
	}
	if _, err := LoadAll(dir); err == nil {
		t.Error("LoadAll accepted a malformed file")
	}
}

func TestPaths(t *testing.T) {
	tests := []struct {
		entries []string
		want    []string
	}{
		{nil, []string{}},
		{[]string{"response.header.extFields - Java HashMap order"}, []string{"response.header.extFields"}},
		{[]string{"response.body.listenPort - port - of the server", "response.body.brokerDatas"},
			[]string{"response.body.listenPort", "response.body.brokerDatas"}},
	}
	for _, tt := range tests {
		if got := Paths(tt.entries); !slices.Equal(got, tt.want) {
			t.Errorf("Paths(%q) = %q, want %q", tt.entries, got, tt.want)
		}
	}
}

func TestPathsOfTheCorpusAreBarePaths(t *testing.T) {
	seen := 0
	for _, exchange := range loadCorpus(t) {
		for _, path := range Paths(append(slices.Clone(exchange.Volatile), exchange.Unordered...)) {
			seen++
			if strings.Contains(path, " ") || !strings.HasPrefix(path, "response.") {
				t.Errorf("%s: path %q", exchange.Name, path)
			}
		}
	}
	if seen == 0 {
		t.Fatal("the corpus has no volatile or unordered entries")
	}
}
