package config

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeListsEveryKey keeps README.md in step with the code: every key is
// in the table with its default and its live flag.
func TestReadmeListsEveryKey(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			continue
		}
		key := strings.Trim(strings.TrimSpace(cells[1]), "`")
		rows[key] = cells
	}
	defaults := Default()
	for _, key := range Keys() {
		cells, ok := rows[key]
		if !ok {
			t.Errorf("README has no row for %s", key)
			continue
		}
		value, _ := defaults.Value(key)
		if key != "rocketmqHome" && key != "kvConfigPath" && key != "configStorePath" &&
			!strings.Contains(cells[2], "`"+value+"`") {
			t.Errorf("README default of %s is %q, code says %q", key, strings.TrimSpace(cells[2]), value)
		}
		live := strings.TrimSpace(cells[3])
		if IsLive(key) != (live == "yes") {
			t.Errorf("README says %s live=%q, LiveKeys disagrees", key, live)
		}
	}
}
