package test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/route"
)

// brokerCluster is a NameServer and cluster C1 of our brokers: broker-a (a
// master and a slave) and broker-b (a master).
type brokerCluster struct {
	ns              *process
	masterA, slaveA *process
	masterB         *process
	nsAddr, cluster string
}

func startBrokerCluster(t *testing.T) *brokerCluster {
	t.Helper()
	c := &brokerCluster{ns: startNamesrv(t), cluster: "C1"}
	c.nsAddr = c.ns.Addr
	nss := []*process{c.ns}
	c.masterA = startBroker(t, brokerSpec{cluster: c.cluster, name: "broker-a", id: 0, nameServers: nss})
	c.slaveA = startBroker(t, brokerSpec{cluster: c.cluster, name: "broker-a", id: 1, nameServers: nss})
	c.masterB = startBroker(t, brokerSpec{cluster: c.cluster, name: "broker-b", id: 0, nameServers: nss})
	eventually(t, 20*time.Second, "three brokers registered", func() error {
		known, err := brokerAddrsOf(c.nsAddr)
		if err != nil {
			return err
		}
		for _, want := range []string{"broker-a/0=" + c.masterA.Addr, "broker-a/1=" + c.slaveA.Addr, "broker-b/0=" + c.masterB.Addr} {
			if !known[want] {
				return fmt.Errorf("%s not in %v", want, known)
			}
		}
		return nil
	})
	return c
}

// configLine matches one getBrokerConfig line of key with value.
func configLine(key, value string) *regexp.Regexp {
	return regexp.MustCompile("(?m)^" + regexp.QuoteMeta(key) + " +=  " + regexp.QuoteMeta(value) + "$")
}

func TestMqadminBrokerConfigCommands(t *testing.T) {
	c := startBrokerCluster(t)
	n := []string{"-n", c.nsAddr}

	out := mustMqadmin(t, append([]string{"getBrokerConfig", "-b", c.masterA.Addr}, n...)...)
	if !strings.HasPrefix(out, "============"+c.masterA.Addr+"============\n") || !configLine("brokerName", "broker-a").MatchString(out) ||
		!configLine("brokerClusterName", "C1").MatchString(out) {
		t.Fatalf("getBrokerConfig -b:\n%s", out)
	}
	out = mustMqadmin(t, append([]string{"getBrokerConfig", "-c", "C1"}, n...)...)
	for _, header := range []string{"============Master: " + c.masterA.Addr + "============\n",
		"============My Master: " + c.masterA.Addr + "=====Slave: " + c.slaveA.Addr + "============\n",
		"============Master: " + c.masterB.Addr + "============\n"} {
		if !strings.Contains(out, header) {
			t.Fatalf("getBrokerConfig -c lacks %q:\n%s", header, out)
		}
	}

	out = mustMqadmin(t, append([]string{"updateBrokerConfig", "-b", c.masterA.Addr, "-k", "brokerPermission", "-v", "4"}, n...)...)
	if out != "update broker config success, "+c.masterA.Addr+"\n" {
		t.Fatalf("updateBrokerConfig -b: %q", out)
	}
	var configs map[string]map[string]string
	out = mustMqadmin(t, append([]string{"getBrokerConfig", "-c", "C1", "-json"}, n...)...)
	if err := json.Unmarshal([]byte(out), &configs); err != nil || len(configs) != 3 ||
		configs[c.masterA.Addr]["brokerPermission"] != "4" || configs[c.masterB.Addr]["brokerPermission"] != "6" ||
		configs[c.slaveA.Addr]["brokerId"] != "1" {
		t.Fatalf("getBrokerConfig -c -json (%v):\n%s", err, out)
	}
	// The NameServer learns the read-only perm at once (a new DataVersion).
	eventually(t, 10*time.Second, "broker-a's topics read-only in the route", func() error {
		data, _, err := routeOf(c.nsAddr, "broker-a")
		if err != nil {
			return err
		}
		for _, q := range data.QueueDatas {
			if q.BrokerName == "broker-a" && q.Perm == route.PermRead {
				return nil
			}
		}
		return fmt.Errorf("queue datas %+v", data.QueueDatas)
	})

	// A key our broker cannot change online, and a typo, are refused with exit 1.
	for _, kv := range [][2]string{{"listenPort", "1"}, {"brokerPermision", "6"}} {
		r := mqadmin(t, append([]string{"updateBrokerConfig", "-b", c.masterA.Addr, "-k", kv[0], "-v", kv[1]}, n...)...)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, kv[0]) {
			t.Fatalf("updateBrokerConfig %s: exit %d\nstdout %q\nstderr %s", kv[0], r.code, r.stdout, r.stderr)
		}
	}
	out = mustMqadmin(t, append([]string{"updateBrokerConfig", "-c", "C1", "-k", "brokerPermission", "-v", "6"}, n...)...)
	if out != "update broker config success, "+c.masterA.Addr+"\nupdate broker config success, "+c.masterB.Addr+"\n" {
		t.Fatalf("updateBrokerConfig -c (masters only): %q", out)
	}
	out = mustMqadmin(t, append([]string{"updateBrokerConfig", "-c", "C1", "-a", "true", "-k", "namesrvAddr", "-v", c.nsAddr}, n...)...)
	if strings.Count(out, "update broker config success") != 3 {
		t.Fatalf("updateBrokerConfig -c -a (every member): %q", out)
	}

	// broker-a without its master: its slave listed under NO_MASTER, as Java's.
	c.masterA.Stop()
	eventually(t, 10*time.Second, "broker-a's master gone from the cluster table", func() error {
		known, err := brokerAddrsOf(c.nsAddr)
		if err != nil || known["broker-a/0="+c.masterA.Addr] {
			return fmt.Errorf("still registered (%v)", err)
		}
		return nil
	})
	out = mustMqadmin(t, append([]string{"getBrokerConfig", "-c", "C1"}, n...)...)
	if !strings.Contains(out, "============Master: NO_MASTER============\n============My Master: NO_MASTER=====Slave: "+c.slaveA.Addr+"============\n") {
		t.Fatalf("getBrokerConfig -c of a set without master:\n%s", out)
	}
}

func TestMqadminBrokerStatusAndHAStatus(t *testing.T) {
	c := startBrokerCluster(t)
	n := []string{"-n", c.nsAddr}

	out := mustMqadmin(t, append([]string{"brokerStatus", "-b", c.masterA.Addr}, n...)...)
	if !regexp.MustCompile(`(?m)^brokerVersionDesc {15}: V5_3_3$`).MatchString(out) || !strings.Contains(out, "brokerActive                    : true\n") {
		t.Fatalf("brokerStatus -b:\n%s", out)
	}
	out = mustMqadmin(t, append([]string{"brokerStatus", "-c", "C1"}, n...)...)
	for _, addr := range []string{c.masterA.Addr, c.slaveA.Addr, c.masterB.Addr} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(addr) + ` +brokerVersionDesc +: V5_3_3$`).MatchString(out) {
			t.Fatalf("brokerStatus -c lacks %s:\n%s", addr, out)
		}
	}
	var tables map[string]map[string]string
	out = mustMqadmin(t, append([]string{"brokerStatus", "-c", "C1", "-json"}, n...)...)
	if err := json.Unmarshal([]byte(out), &tables); err != nil || len(tables) != 3 || tables[c.slaveA.Addr]["brokerActive"] != "false" {
		t.Fatalf("brokerStatus -json (%v):\n%s", err, out)
	}

	out = mustMqadmin(t, append([]string{"haStatus", "-b", c.masterA.Addr}, n...)...)
	if !strings.HasPrefix(out, "\n#MasterAddr\t"+c.masterA.Addr+"\n#MasterCommitLogMaxOffset\t0\n#SlaveNum\t0\n#InSyncSlaveNum\t0\n#SlaveAddr") {
		t.Fatalf("haStatus of a master:\n%s", out)
	}
	out = mustMqadmin(t, append([]string{"haStatus", "-b", c.slaveA.Addr}, n...)...)
	if !strings.HasPrefix(out, "\n#MasterAddr\t"+c.masterA.Addr+"\n#CommitLogMaxOffset\t0\n#TransferSpeed(KB/s)\t0.00\n#LastReadTime\t") {
		t.Fatalf("haStatus of a slave:\n%s", out)
	}
	var infos map[string]struct {
		Master bool `json:"master"`
	}
	out = mustMqadmin(t, append([]string{"haStatus", "-c", "C1", "-json"}, n...)...)
	if err := json.Unmarshal([]byte(out), &infos); err != nil || len(infos) != 2 || !infos[c.masterA.Addr].Master || !infos[c.masterB.Addr].Master {
		t.Fatalf("haStatus -c -json: masters only (%v):\n%s", err, out)
	}
}

func TestMqadminExportConfigsAndGetKvConfig(t *testing.T) {
	c := startBrokerCluster(t)
	n := []string{"-n", c.nsAddr}

	dir := filepath.Join(t.TempDir(), "export")
	out := mustMqadmin(t, append([]string{"exportConfigs", "-c", "C1", "-f", dir}, n...)...)
	path := filepath.Join(dir, "configs.json")
	if out != "export "+path+" success" {
		t.Fatalf("exportConfigs: %q", out)
	}
	exported := readExport(t, path)
	if len(exported.BrokerConfigs) != 2 || exported.BrokerConfigs["broker-b"]["brokerName"] != "broker-b" ||
		exported.BrokerConfigs["broker-a"]["brokerClusterName"] != "C1" {
		t.Fatalf("configs.json: %+v", exported)
	}
	if s := exported.ClusterScale; s["namesrvSize"] != 1 || s["masterBrokerSize"] != 2 || s["slaveBrokerSize"] != 1 {
		t.Fatalf("clusterScale %v", s)
	}

	mustMqadmin(t, append([]string{"updateKvConfig", "-s", "NS1", "-k", "k1", "-v", "v1"}, n...)...)
	mustMqadmin(t, append([]string{"updateKvConfig", "-s", "NS1", "-k", "k2", "-v", "v2"}, n...)...)
	if out := mustMqadmin(t, append([]string{"getKvConfig", "-s", "NS1", "-k", "k1"}, n...)...); out != "v1\n" {
		t.Fatalf("getKvConfig -k: %q", out)
	}
	if out := mustMqadmin(t, append([]string{"getKvConfig", "-s", "NS1"}, n...)...); out != "k1=v1\nk2=v2\n" {
		t.Fatalf("getKvConfig of a namespace: %q", out)
	}
	var list struct {
		Namespace string            `json:"namespace"`
		Table     map[string]string `json:"table"`
	}
	out = mustMqadmin(t, append([]string{"getKvConfig", "-s", "NS1", "-json"}, n...)...)
	if err := json.Unmarshal([]byte(out), &list); err != nil || list.Namespace != "NS1" || list.Table["k2"] != "v2" {
		t.Fatalf("getKvConfig -json (%v): %s", err, out)
	}
	if r := mqadmin(t, append([]string{"getKvConfig", "-s", "NS1", "-k", "nope"}, n...)...); r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "nope") {
		t.Fatalf("getKvConfig of a missing key: exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// exportFile is configs.json as exportConfigs writes it.
type exportFile struct {
	BrokerConfigs map[string]map[string]string `json:"brokerConfigs"`
	ClusterScale  map[string]int               `json:"clusterScale"`
}

func readExport(t *testing.T, path string) exportFile {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f exportFile
	if err := json.Unmarshal(text, &f); err != nil {
		t.Fatalf("configs.json does not decode: %v\n%s", err, text)
	}
	return f
}

// Issue 36 item 5: a broker that does not answer among several keeps the
// others' output and exits 2; an unknown cluster or broker exits non-zero
// with a clear message.
func TestMqadminBrokerCommandsPartialAndUnknown(t *testing.T) {
	c := startBrokerCluster(t)
	n := []string{"-n", c.nsAddr}

	for _, args := range [][]string{
		{"getBrokerConfig", "-c", "nosuch"}, {"updateBrokerConfig", "-c", "nosuch", "-k", "brokerPermission", "-v", "6"},
		{"brokerStatus", "-c", "nosuch"}, {"haStatus", "-c", "nosuch"}, {"exportConfigs", "-c", "nosuch", "-f", t.TempDir()},
	} {
		r := mqadmin(t, append(args, n...)...)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `cluster "nosuch" not found`) {
			t.Fatalf("%v: exit %d\nstdout %q\nstderr %s", args, r.code, r.stdout, r.stderr)
		}
	}
	unknown := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	for _, args := range [][]string{{"getBrokerConfig", "-b", unknown}, {"brokerStatus", "-b", unknown}, {"haStatus", "-b", unknown},
		{"updateBrokerConfig", "-b", unknown, "-k", "brokerPermission", "-v", "6"}} {
		r := mqadmin(t, append(args, n...)...)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, unknown) {
			t.Fatalf("%v: exit %d\nstdout %q\nstderr %s", args, r.code, r.stdout, r.stderr)
		}
	}

	// broker-b hangs (SIGSTOP): the NameServer still lists it, it answers nothing.
	if err := c.masterB.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer c.masterB.cmd.Process.Signal(syscall.SIGCONT)
	dir := t.TempDir()
	cases := []struct {
		args []string
		good []string // on stdout
	}{
		{[]string{"getBrokerConfig", "-c", "C1"}, []string{"============Master: " + c.masterA.Addr, "Slave: " + c.slaveA.Addr}},
		{[]string{"brokerStatus", "-c", "C1", "-json"}, []string{`"` + c.masterA.Addr + `"`, `"` + c.slaveA.Addr + `"`}},
		{[]string{"haStatus", "-c", "C1"}, []string{"#MasterAddr\t" + c.masterA.Addr}},
		{[]string{"updateBrokerConfig", "-c", "C1", "-k", "brokerPermission", "-v", "6"}, []string{"update broker config success, " + c.masterA.Addr}},
		{[]string{"exportConfigs", "-c", "C1", "-f", dir}, []string{"export " + filepath.Join(dir, "configs.json") + " success"}},
	}
	// At once: each waits out the hung broker's 5 s request timeout. The
	// group returns when all have, before broker-b is resumed.
	t.Run("broker-b hung", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.args[0], func(t *testing.T) {
				t.Parallel()
				r := mqadmin(t, append(tc.args, n...)...)
				if r.code != 2 || strings.Contains(r.stdout, c.masterB.Addr) || !strings.Contains(r.stderr, c.masterB.Addr+" (broker-b) failed") {
					t.Fatalf("%v with broker-b hung: exit %d\nstdout %s\nstderr %s", tc.args, r.code, r.stdout, r.stderr)
				}
				for _, good := range tc.good {
					if !strings.Contains(r.stdout, good) {
						t.Fatalf("%v with broker-b hung: stdout lacks %q:\n%s", tc.args, good, r.stdout)
					}
				}
			})
		}
	})
	if exported := readExport(t, filepath.Join(dir, "configs.json")); len(exported.BrokerConfigs) != 1 || exported.BrokerConfigs["broker-a"] == nil {
		t.Fatalf("configs.json with broker-b hung: %+v", exported)
	}
}

// haStatus of our brokers in controller mode: the master counts the
// controller's in-sync slaves, the slave names the master the controller gave.
func TestMqadminHAStatusInControllerMode(t *testing.T) {
	ctl := startControllerGroup(t, 1)
	ns := startNamesrv(t)
	a, b := startMasterAndSlave(t, ns, "ha-cluster", "ha-set", controllerModeConf(ctl.addrs[0]), 20*time.Second)
	n := []string{"-n", ns.Addr}
	eventually(t, 20*time.Second, "the slave counted in sync", func() error {
		out := mustMqadmin(t, append([]string{"haStatus", "-c", "ha-cluster"}, n...)...)
		if !strings.HasPrefix(out, "\n#MasterAddr\t"+a.Addr+"\n#MasterCommitLogMaxOffset\t0\n#SlaveNum\t0\n#InSyncSlaveNum\t1\n") {
			return fmt.Errorf("haStatus of the master:\n%s", out)
		}
		return nil
	})
	out := mustMqadmin(t, append([]string{"haStatus", "-b", b.Addr}, n...)...)
	if !strings.HasPrefix(out, "\n#MasterAddr\t"+a.Addr+"\n#CommitLogMaxOffset\t0\n") {
		t.Fatalf("haStatus of the slave:\n%s", out)
	}
}
