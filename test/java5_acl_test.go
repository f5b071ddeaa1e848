package test

import (
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// memoryAuthProvider compiles testdata/java5's in-memory auth store against
// the build and returns the folder of its class.
func memoryAuthProvider(t *testing.T, build string) string {
	t.Helper()
	cp, err := os.ReadFile(filepath.Join(build, "classpath.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	javac := exec.Command("javac", "-nowarn", "-cp", strings.TrimSpace(string(cp)), "-d", out,
		filepath.Join("testdata", "java5", "MemoryAuthenticationMetadataProvider.java"))
	if msg, err := javac.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
	return out
}

// Issue 35 item 3: under our controller with aclEnable=true and no
// white-listed address (it refuses every unsigned write), Java 5.3.3
// brokers that sign with innerClientAuthenticationCredentials (an admin
// account) get their ids, elect a master and fail over as without ACL.
func TestJava5BrokersSignUnderOurACLController(t *testing.T) {
	build := java5Build(t)
	provider := memoryAuthProvider(t, build)
	ctl := startControllerGroup(t, 1, "-aclEnable", "-aclFile", writeControllerAccounts(t))
	ctl.leader(t, 30*time.Second)
	ns := startNamesrv(t)
	signed := func(spec *javaBrokerSpec) {
		spec.classpath = provider
		spec.extra = []string{
			fmt.Sprintf(`innerClientAuthenticationCredentials={"accessKey":"%s","secretKey":"%s"}`, aclAdmin.AccessKey, aclAdmin.SecretKey),
			// A 5.3.3 broker keeps the credentials as a user of its own
			// auth store, which needs a provider.
			"authenticationMetadataProvider=MemoryAuthenticationMetadataProvider",
		}
	}
	javaBrokersFailOver(t, build, ns.Addr, ctl.addrs, nil, signed)
}

// Issue 35's interop check: Java 5.3.3 brokers in controller mode under a
// 3-node group of ours with everything on: ACL (no white-listed address:
// every unsigned write refused), TLS enforcing on the broker-facing port
// (a plain connection is closed), Raft over mutual TLS, and election
// notices signed by the group's admin account over TLS to a NameServer
// with ACL that lists the group in controllerAddr. The brokers sign with
// innerClientAuthenticationCredentials and talk TLS (useTLS=true); they get
// their ids, elect a master and fail over as without any of it.
func TestJava5BrokersSignUnderASecuredControllerGroup(t *testing.T) {
	build := java5Build(t)
	provider := memoryAuthProvider(t, build)
	dir := t.TempDir()
	certs, err := testcerts.WriteGroup(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	addrs, peers := groupPeers(t, 3)
	// The NameServer: ACL with the test accounts (127.0.0.1 white-listed for
	// the test's unsigned reads; a notice still needs the admin's
	// signature), TLS permissive, the group's hosts in controllerAddr.
	nsAccounts := filepath.Join(dir, "ns_acl.yml")
	if err := os.WriteFile(nsAccounts, []byte(aclTestFile), 0o600); err != nil {
		t.Fatal(err)
	}
	nsConf := filepath.Join(dir, "namesrv.properties")
	if err := os.WriteFile(nsConf, []byte(strings.Join([]string{"aclEnable=true", "aclFile=" + nsAccounts,
		"tls.server.mode=permissive", "tls.server.certPath=" + certs.Certs[0], "tls.server.keyPath=" + certs.Keys[0],
		"controllerAddr=" + strings.Join(addrs, ";")}, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ns := startNamesrv(t, "-c", nsConf)
	admin := fmt.Sprintf(`{"accessKey":"%s","secretKey":"%s"}`, aclAdmin.AccessKey, aclAdmin.SecretKey)
	ctl := startControllerGroupAt(t, addrs, peers, "-aclEnable", "-aclFile", writeControllerAccounts(t),
		"-tls.server.mode", "enforcing", "-tls.server.certPath", certs.Certs[0], "-tls.server.keyPath", certs.Keys[0],
		"-controllerRaftTlsCertPath", certs.Certs[0], "-controllerRaftTlsKeyPath", certs.Keys[0],
		"-controllerRaftTlsTrustCertPath", certs.CACert,
		"-namesrvAddr", ns.Addr, "-innerClientAuthenticationCredentials", admin,
		"-useTLS", "-tls.client.trustCertPath", certs.CACert)
	secure := remoting.ClientConfig{TLS: &tls.Config{RootCAs: certs.CAPool, MinVersion: tls.VersionTLS12}}
	probe := ctltest.NewBrokerWith(t, "probe", "probe", nil, secure)
	eventually(t, 60*time.Second, "a serving leader of the secured group", func() error {
		for _, addr := range addrs {
			if md, err := probe.Metadata(addr); err == nil && md.IsLeader {
				return nil
			}
		}
		return errors.New("no node says isLeader over TLS")
	})
	if _, err := ctltest.NewBroker(t, "probe", "probe", nil).Metadata(addrs[0]); err == nil {
		t.Fatal("a plain connection to a controller with tls.server.mode=enforcing was answered")
	}
	secured := func(spec *javaBrokerSpec) {
		spec.classpath = provider
		spec.probe = secure
		spec.extra = []string{
			"innerClientAuthenticationCredentials=" + admin,
			"authenticationMetadataProvider=MemoryAuthenticationMetadataProvider",
			// NettyClientConfig's key: the broker's requests to the
			// NameServer and the controllers go over TLS.
			"useTLS=true",
		}
	}
	javaBrokersFailOver(t, build, ns.Addr, addrs, nil, secured)
	// The group told the NameServer of both elections signed by its admin
	// account and over TLS: no node failed to deliver a notice, and the
	// NameServer refused none.
	for _, p := range append([]*process{ns}, ctl.procs...) {
		out, err := os.ReadFile(p.logPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, refused := range []string{"election notice refused", "NameServer refused an election notice",
			"election notice to a NameServer not delivered"} {
			if strings.Contains(string(out), refused) {
				t.Errorf("%s logged %q:\n%s", p.name, refused, out)
			}
		}
	}
}
