package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// page is the committed page, from this package's folder.
var page = filepath.Join("..", "..", "..", "docs", "configuration.md")

// TestConfigurationDocIsGenerated: docs/configuration.md is what `make docs`
// writes, so a key added, a default changed or a bound moved in the code
// cannot leave the page behind.
func TestConfigurationDocIsGenerated(t *testing.T) {
	committed, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if want := Render(); string(committed) != want {
		t.Fatalf("docs/configuration.md is not what the generator writes: run `make docs` and commit it\n(first difference at line %d)", firstDiffLine(string(committed), want))
	}
}

// TestEveryKeyHasARowWithItsFacts reads the rendered table back: one row per
// key, with the code's default, live flag and bounds.
func TestEveryKeyHasARowWithItsFacts(t *testing.T) {
	rows := map[string][]string{}
	for _, line := range strings.Split(Render(), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), " | ")
		if len(cells) != 6 {
			continue // the command-line table
		}
		rows[strings.Trim(strings.TrimPrefix(cells[0], "| "), "`")] = cells
	}
	defaults := config.Default()
	for _, key := range config.Keys() {
		cells, ok := rows[key]
		if !ok {
			t.Errorf("no row for %s", key)
			continue
		}
		value, _ := defaults.Value(key)
		if key != "rocketmqHome" && key != "kvConfigPath" && key != "configStorePath" && value != "" &&
			cells[1] != "`"+value+"`" {
			t.Errorf("%s: default cell %q, the code says %q", key, cells[1], value)
		}
		if config.IsLive(key) != (cells[3] == "live") {
			t.Errorf("%s: changes cell %q, IsLive %v", key, cells[3], config.IsLive(key))
		}
		if lo, hi, ok := config.Bounds(key); ok && cells[2] != group(lo)+" – "+group(hi) {
			t.Errorf("%s: range cell %q, bounds %d..%d", key, cells[2], lo, hi)
		}
	}
	if len(rows) != len(config.Keys()) {
		t.Errorf("%d rows for %d keys", len(rows), len(config.Keys()))
	}
}

func TestGroupAndShownDefault(t *testing.T) {
	for n, want := range map[int64]string{0: "0", -1: "-1", 999: "999", 1000: "1,000", 86_400_000: "86,400,000", 1 << 40: "1,099,511,627,776"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home folder:", err)
	}
	if got := shownDefault("kvConfigPath", home+"/namesrv/kvConfig.json"); got != "`~/namesrv/kvConfig.json`" {
		t.Errorf("home not shown as ~: %s", got)
	}
	if got := shownDefault("logFile", ""); got != "(empty)" {
		t.Errorf("empty default shown as %s", got)
	}
}

func firstDiffLine(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

func TestFromNamesJavasOtherSettings(t *testing.T) {
	for key, want := range map[string]string{"listenPort": "Java", "tls.server.mode": "Java (TLS setting)",
		"frameMaxLength": "Java (JVM property)", "requestMemoryLimit": "Go"} {
		if got := from(key); got != want {
			t.Errorf("from(%s) = %q, want %q", key, got, want)
		}
	}
}
