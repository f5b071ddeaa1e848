package test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// confSample is conf/name with each key's line set to the value given (the
// sample's ports and folders, which a test must not take, turned into free
// loopback ports and temp folders), written to a temp folder. A key missing
// from the sample fails the test: the sample must keep showing it.
func confSample(t *testing.T, name string, set map[string]string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "conf", name))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for key, value := range set {
		line := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + `=.*$`)
		if !line.MatchString(text) {
			t.Fatalf("conf/%s has no %s= line", name, key)
		}
		text = line.ReplaceAllLiteralString(text, key+"="+value)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// noUnknownKeys fails when p's log warns of a key of its sample file it
// does not know.
func noUnknownKeys(t *testing.T, p *process, sample string) {
	t.Helper()
	log, err := os.ReadFile(p.logPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "unknown key") {
		t.Errorf("conf/%s: %s warns of an unknown key:\n%s", sample, p.name, log)
	}
}

// TestConfSamplesStart starts every file of conf/ with the real binaries:
// the NameServer with conf/namesrv.properties (its port and data folder
// overridden by flags, which win over the file), the three controllers of
// conf/controller.conf (peers, store and self id by flags) until one
// leads, broker-a and its slave, and the controller-mode broker-c (its
// ports and stores, which cmd/broker takes from the file only, set in a
// copy), until the NameServer routes broker-a's two members and broker-c's
// master. None of the files may draw an unknown-key warning.
func TestConfSamplesStart(t *testing.T) {
	port := freePort(t)
	data := t.TempDir()
	ns := &process{t: t, name: "namesrv", Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), DataDir: data,
		args: []string{"-c", filepath.Join("..", "conf", "namesrv.properties"), "-bindAddress", "127.0.0.1",
			"-listenPort", strconv.Itoa(port), "-httpListenPort", "-1", "-data", data, "-readinessWarmUpMillis", "0"}}
	ns.start()
	noUnknownKeys(t, ns, "namesrv.properties")

	addrs, peers := groupPeers(t, 3)
	g := &controllerGroup{store: t.TempDir(), addrs: addrs}
	for i := range addrs {
		p := &process{t: t, name: "controller", Addr: addrs[i], DataDir: g.store,
			args: []string{"-c", filepath.Join("..", "conf", "controller.conf"), "-controllerDLegerPeers", strings.Join(peers, ";"),
				"-controllerDLegerSelfId", fmt.Sprintf("n%d", i), "-controllerStorePath", g.store, "-httpListenPort", "-1"}}
		p.start()
		g.procs = append(g.procs, p)
		noUnknownKeys(t, p, "controller.conf")
	}
	g.leader(t, 60*time.Second)

	broker := func(sample string, set map[string]string) {
		port := freePort(t)
		set["listenPort"], set["storePathRootDir"] = strconv.Itoa(port), t.TempDir()
		conf := confSample(t, sample, set)
		p := &process{t: t, name: "broker", Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
			args: []string{"-c", conf, "-n", ns.Addr}}
		p.start()
		noUnknownKeys(t, p, sample)
	}
	broker("broker-a.properties", map[string]string{})
	broker("broker-a-s.properties", map[string]string{})
	broker("broker-c.properties", map[string]string{"controllerAddr": strings.Join(addrs, ";")})

	eventually(t, 60*time.Second, "broker-a's master and slave and broker-c's master in the routes", func() error {
		out := mqadmin(t, "clusterList", "-n", ns.Addr).stdout
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`(?m)^DefaultCluster\s+broker-a\s+0\s`),
			regexp.MustCompile(`(?m)^DefaultCluster\s+broker-a\s+1\s`),
			regexp.MustCompile(`(?m)^DefaultCluster\s+broker-c\s+0\s`),
		} {
			if !want.MatchString(out) {
				return fmt.Errorf("no line %s in:\n%s", want, out)
			}
		}
		return nil
	})
}
