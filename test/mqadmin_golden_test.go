package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mqadminGoldenDir holds the expected output of each mqadmin command against
// one NameServer and one broker; UPDATE_GOLDEN=1 rewrites the files.
const mqadminGoldenDir = "testdata/mqadmin"

// TestMqadminGolden runs every route command of mqadmin against real binaries
// and compares its output, with addresses replaced by {NAMESRV} and {BROKER},
// with the golden files.
func TestMqadminGolden(t *testing.T) {
	ns := startNamesrv(t)
	broker := startBroker(t, brokerSpec{cluster: "GoldenCluster", name: "broker-g", id: 0, nameServers: []*process{ns}})
	eventually(t, clusterDeadline, "broker registered", func() error {
		known, err := brokerAddrsOf(ns.Addr)
		if err != nil {
			return err
		}
		if !known["broker-g/0="+broker.Addr] {
			return fmt.Errorf("not yet: %v", known)
		}
		return nil
	})
	normalize := func(text string) string {
		return strings.NewReplacer(ns.Addr, "{NAMESRV}", broker.Addr, "{BROKER}").Replace(text)
	}
	steps := []struct {
		name string
		args []string
	}{
		{"updateTopic-b", []string{"updateTopic", "-b", broker.Addr, "-t", "GoldenTopic", "-r", "4", "-w", "4"}},
		{"updateTopic-c-order", []string{"updateTopic", "-c", "GoldenCluster", "-t", "GoldenOrder", "-o", "true", "-a", "+message.type=FIFO"}},
		{"updateTopic-unknown-cluster", []string{"updateTopic", "-c", "NoSuchCluster", "-t", "X"}},
		{"topicRoute", []string{"topicRoute", "-t", "GoldenTopic"}},
		{"topicRoute-l", []string{"topicRoute", "-t", "GoldenTopic", "-l"}},
		{"topicRoute-json", []string{"topicRoute", "-t", "GoldenTopic", "-json"}},
		{"topicClusterList", []string{"topicClusterList", "-t", "GoldenTopic"}},
		{"topicList", []string{"topicList"}},
		{"topicList-c", []string{"topicList", "-c"}},
		{"clusterList", []string{"clusterList"}},
		{"clusterList-m", []string{"clusterList", "-m"}},
		{"wipeWritePerm", []string{"wipeWritePerm", "-b", "broker-g"}},
		{"addWritePerm", []string{"addWritePerm", "-b", "broker-g"}},
		{"updateKvConfig", []string{"updateKvConfig", "-s", "ns1", "-k", "k1", "-v", "v1"}},
		{"deleteKvConfig", []string{"deleteKvConfig", "-s", "ns1", "-k", "k1"}},
		{"updateOrderConf-put", []string{"updateOrderConf", "-t", "GoldenTopic", "-m", "put", "-v", "broker-g:4"}},
		{"updateOrderConf-get", []string{"updateOrderConf", "-t", "GoldenTopic", "-m", "get"}},
		{"updateOrderConf-delete", []string{"updateOrderConf", "-t", "GoldenTopic", "-m", "delete"}},
		{"updateNamesrvConfig", []string{"updateNamesrvConfig", "-k", "orderMessageEnable", "-v", "false"}},
		{"deleteTopic", []string{"deleteTopic", "-c", "GoldenCluster", "-t", "GoldenTopic"}},
	}
	for _, step := range steps {
		args := append(append([]string{}, step.args...), "-n", ns.Addr)
		r := mqadmin(t, args...)
		got := normalize(fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr))
		path := filepath.Join(mqadminGoldenDir, step.name+".golden")
		if os.Getenv("UPDATE_GOLDEN") == "1" {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (UPDATE_GOLDEN=1 creates it)", step.name, err)
		}
		if got != string(want) {
			t.Errorf("mqadmin %v differs from %s:\n--- got ---\n%s\n--- want ---\n%s", step.args, path, got, want)
		}
	}
}
