package test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
