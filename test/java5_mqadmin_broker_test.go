package test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 36 item 5 against Java 5.3.3: our mqadmin's broker commands asked of
// a Java master and its slave (brokerId 0 and 1, classic replication) under
// our NameServer, each checked against what Java's own mqadmin prints.
func TestJava5MqadminBrokerCommands(t *testing.T) {
	build := java5Build(t)
	ns := startNamesrv(t)
	master := startJavaBroker(t, build, javaBrokerSpec{cluster: "JC", name: "broker-j", namesrv: ns.Addr,
		extra: []string{"enableControllerMode=false", "brokerId=0", "brokerRole=ASYNC_MASTER"}})
	slave := startJavaBroker(t, build, javaBrokerSpec{cluster: "JC", name: "broker-j", namesrv: ns.Addr,
		extra: []string{"enableControllerMode=false", "brokerId=1", "brokerRole=SLAVE"}})
	eventually(t, 90*time.Second, "the Java master and slave registered", func() error {
		known, err := brokerAddrsOf(ns.Addr)
		if err != nil {
			return err
		}
		if !known["broker-j/0="+master.Addr] || !known["broker-j/1="+slave.Addr] {
			return fmt.Errorf("registered: %v", known)
		}
		return nil
	})
	n := []string{"-n", ns.Addr}
	both := func(args ...string) (ours, java string) {
		t.Helper()
		ours = mustMqadmin(t, append(args, n...)...)
		java, code := javaMqadmin(t, build, append(args, n...)...)
		if code != 0 {
			t.Fatalf("Java mqadmin %v exited %d:\n%s", args, code, java)
		}
		return ours, java
	}

	// getBrokerConfig: the same header and the same key=value lines (Java
	// prints them in hash order, ours sorted).
	ours, java := both("getBrokerConfig", "-b", master.Addr)
	if !sameLines(ours, java) || !configLine("brokerName", "broker-j").MatchString(ours) {
		t.Fatalf("getBrokerConfig -b differs from Java's:\nours:\n%s\njava:\n%s", ours, java)
	}

	// updateBrokerConfig: the change shows in both tools' getBrokerConfig.
	ours = mustMqadmin(t, append([]string{"updateBrokerConfig", "-b", master.Addr, "-k", "fileReservedTime", "-v", "49"}, n...)...)
	if ours != "update broker config success, "+master.Addr+"\n" {
		t.Fatalf("updateBrokerConfig: %q", ours)
	}
	ours, java = both("getBrokerConfig", "-b", master.Addr)
	if !configLine("fileReservedTime", "49").MatchString(ours) || !configLine("fileReservedTime", "49").MatchString(java) {
		t.Fatalf("fileReservedTime=49 not shown:\nours:\n%s\njava:\n%s", ours, java)
	}
	// A typo: Java's broker answers success and changes nothing; ours says so and exits 1.
	r := mqadmin(t, append([]string{"updateBrokerConfig", "-b", master.Addr, "-k", "fileReservedTme", "-v", "50"}, n...)...)
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "has no config key fileReservedTme (closest key it has: fileReservedTime)") {
		t.Fatalf("updateBrokerConfig with a typo: exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
	var configs map[string]map[string]string
	ours = mustMqadmin(t, append([]string{"getBrokerConfig", "-c", "JC", "-json"}, n...)...)
	if err := json.Unmarshal([]byte(ours), &configs); err != nil || configs[master.Addr]["brokerRole"] != "ASYNC_MASTER" || configs[slave.Addr]["brokerRole"] != "SLAVE" {
		t.Fatalf("getBrokerConfig -c -json (%v):\n%s", err, ours)
	}
	ours, java = both("getBrokerConfig", "-c", "JC")
	if !sameLines(ours, java) {
		t.Fatalf("getBrokerConfig -c differs from Java's:\nours:\n%s\njava:\n%s", ours, java)
	}

	// brokerStatus: Java's runtime keys, in Java's layout.
	ours, java = both("brokerStatus", "-b", master.Addr)
	if got, want := statusKeys(ours), statusKeys(java); !slices.Equal(got, want) || !slices.Contains(got, "commitLogMaxOffset") {
		t.Fatalf("brokerStatus keys differ:\nours %v\njava %v", got, want)
	}
	ours, java = both("brokerStatus", "-c", "JC")
	if got, want := statusKeys(ours), statusKeys(java); !slices.Equal(got, want) {
		t.Fatalf("brokerStatus -c keys differ:\nours %v\njava %v", got, want)
	}

	// haStatus: the master with its slave connection, the slave with its
	// master's HA address.
	eventually(t, 60*time.Second, "the slave connected for replication", func() error {
		out := mustMqadmin(t, append([]string{"haStatus", "-b", master.Addr}, n...)...)
		if !strings.Contains(out, "#SlaveNum\t1\n") {
			return fmt.Errorf("haStatus:\n%s", out)
		}
		return nil
	})
	for _, addr := range []string{master.Addr, slave.Addr} {
		ours, java = both("haStatus", "-b", addr)
		t.Logf("haStatus -b %s\nours:%s\njava:%s", addr, ours, java)
		if got, want := haShape(ours), haShape(java); !slices.Equal(got, want) {
			t.Fatalf("haStatus -b %s differs from Java's:\nours:\n%s\njava:\n%s", addr, ours, java)
		}
	}
	var infos map[string]struct {
		Master           bool `json:"master"`
		HAConnectionInfo []struct {
			Addr string `json:"addr"`
		} `json:"haConnectionInfo"`
	}
	ours = mustMqadmin(t, append([]string{"haStatus", "-c", "JC", "-json"}, n...)...)
	if err := json.Unmarshal([]byte(ours), &infos); err != nil || len(infos) != 1 || !infos[master.Addr].Master || len(infos[master.Addr].HAConnectionInfo) != 1 {
		t.Fatalf("haStatus -c -json (%v):\n%s", err, ours)
	}

	// exportConfigs: the same configs.json content.
	oursDir, javaDir := t.TempDir(), t.TempDir()
	ours, java = both("exportConfigs", "-c", "JC", "-f", oursDir)
	if ours != "export "+filepath.Join(oursDir, "configs.json")+" success" {
		t.Fatalf("exportConfigs: %q", ours)
	}
	javaMqadminOK(t, build, append([]string{"exportConfigs", "-c", "JC", "-f", javaDir}, n...)...)
	if got, want := readJSONFile(t, filepath.Join(oursDir, "configs.json")), readJSONFile(t, filepath.Join(javaDir, "configs.json")); !reflect.DeepEqual(got, want) {
		t.Fatalf("configs.json differs:\nours %v\njava %v", got, want)
	}

	// The slave hangs: the master's answer is kept, exit 2.
	if err := slave.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer slave.cmd.Process.Signal(syscall.SIGCONT)
	r = mqadmin(t, append([]string{"brokerStatus", "-c", "JC"}, n...)...)
	if r.code != 2 || !strings.Contains(r.stdout, master.Addr) || strings.Contains(r.stdout, slave.Addr) || !strings.Contains(r.stderr, slave.Addr+" (broker-j) failed") {
		t.Fatalf("brokerStatus -c with the slave hung: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// javaMqadminOK runs Java's mqadmin and fails the test on a non-zero exit.
func javaMqadminOK(t *testing.T, build string, args ...string) string {
	t.Helper()
	out, code := javaMqadmin(t, build, args...)
	if code != 0 {
		t.Fatalf("Java mqadmin %v exited %d:\n%s", args, code, out)
	}
	return out
}

// sameLines reports two outputs with the same lines in any order.
func sameLines(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

// statusKeys are the "address key" parts of brokerStatus lines (values move), sorted.
func statusKeys(out string) []string {
	var keys []string
	for _, line := range strings.Split(out, "\n") {
		if k, _, ok := strings.Cut(line, ": "); ok {
			keys = append(keys, strings.Join(strings.Fields(k), " "))
		}
	}
	slices.Sort(keys)
	return keys
}

// haShape is haStatus output without the figures that move (offsets,
// speeds, times): each line's first field, and the whole line for the
// addresses and counts.
func haShape(out string) []string {
	var shape []string
	for _, line := range strings.Split(out, "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case slices.Contains([]string{"#MasterAddr", "#SlaveNum", "#InSyncSlaveNum", "#SlaveAddr"}, fields[0]):
			shape = append(shape, line)
		default:
			shape = append(shape, fields[0])
		}
	}
	return shape
}

func readJSONFile(t *testing.T, path string) map[string]any {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, text)
	}
	return v
}
