package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// TestBrokerPortTakesACLAndTLS: cmd/broker with aclEnable=true and
// tls.server.mode=enforcing. mqadmin without keys (a stranger) and with a
// plain account is refused 16 by updateBrokerConfig, exits non-zero naming
// the refusal, and getBrokerConfig (signed) shows nothing changed; without
// -tls nothing is served; the admin's update over -tls is applied. The
// aclEnable=false case is TestMqadminBrokerConfigCommands (unsigned, plain).
func TestBrokerPortTakesACLAndTLS(t *testing.T) {
	dir := t.TempDir()
	certs, err := testcerts.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	aclFile := filepath.Join(dir, "plain_acl.yml")
	if err := os.WriteFile(aclFile, []byte(strictACLFile), 0o600); err != nil {
		t.Fatal(err)
	}
	ns := startNamesrv(t)
	b := startBroker(t, brokerSpec{cluster: "GuardCluster", name: "broker-g", nameServers: []*process{ns}, extra: []string{
		"aclEnable=true", "aclFile=" + aclFile, "tls.server.mode=enforcing",
		"tls.server.certPath=" + certs.ServerCert, "tls.server.keyPath=" + certs.ServerKey}})
	t.Setenv("ROCKETMQ_HOME", t.TempDir()) // no tools.yml
	tls := []string{"-n", ns.Addr, "-b", b.Addr, "-tlsTrust", certs.CACert}
	update := append([]string{"updateBrokerConfig", "-k", "brokerPermission", "-v", "4"}, tls...)
	get := append([]string{"getBrokerConfig", "-ak", "userKey01", "-sk", "userSecret01"}, tls...)

	for _, c := range []struct {
		who  string
		keys []string
		want string
	}{{"stranger", nil, "CODE: 16"}, {"user", []string{"-ak", "userKey01", "-sk", "userSecret01"}, "not an admin"}} {
		r := mqadmin(t, append(update, c.keys...)...)
		if r.code == 0 || !strings.Contains(r.stderr, "CODE: 16") || !strings.Contains(r.stderr, c.want) {
			t.Fatalf("%s's updateBrokerConfig: exit %d\nstdout %s\nstderr %s", c.who, r.code, r.stdout, r.stderr)
		}
	}
	if out := mustMqadmin(t, get...); !configLine("brokerPermission", "6").MatchString(out) || !configLine("aclEnable", "true").MatchString(out) {
		t.Fatalf("refused updates changed the settings:\n%s", out)
	}
	plain := []string{"getBrokerConfig", "-n", ns.Addr, "-b", b.Addr, "-ak", "adminKey01", "-sk", "adminSecret01"}
	if r := mqadmin(t, plain...); r.code == 0 {
		t.Fatalf("a plain mqadmin was served by an enforcing broker:\n%s", r.stdout)
	}
	if out := mustMqadmin(t, append(update, "-ak", "adminKey01", "-sk", "adminSecret01")...); !strings.Contains(out, "update broker config success") {
		t.Fatalf("admin's updateBrokerConfig: %q", out)
	}
	if out := mustMqadmin(t, get...); !configLine("brokerPermission", "4").MatchString(out) {
		t.Fatalf("admin's update not applied:\n%s", out)
	}
}
