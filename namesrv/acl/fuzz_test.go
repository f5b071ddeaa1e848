package acl

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
)

// FuzzCheck feeds arbitrary ext fields, bodies, access keys and signatures
// to a checker: it must never panic, and no request may pass a class that
// needs an account, since the fuzzer never knows a secret.
func FuzzCheck(f *testing.F) {
	c, _ := newTestChecker(f, testFile, Options{Enabled: true})
	f.Add("topic=T", []byte("body"), "userKey1", "nkCYtxv6V9aq6Z98xdLAuokushs=", uint8(2), "127.0.0.1")
	f.Add("SecurityToken=x\nAccessKey=adminKey1", []byte{}, "adminKey1", "", uint8(3), "::1")
	f.Add("Signature=", []byte(nil), "", "=", uint8(1), "10.0.0.1")
	f.Fuzz(func(t *testing.T, fields string, body []byte, accessKey, signature string, class uint8, remote string) {
		ext := map[string]string{}
		for _, line := range strings.Split(fields, "\n") {
			key, value, _ := strings.Cut(line, "=")
			ext[key] = value
		}
		if accessKey != "" {
			ext[aclsign.AccessKey] = accessKey
		}
		if signature != "" {
			ext[aclsign.Signature] = signature
		}
		addr, err := netip.ParseAddr(remote)
		if err != nil {
			addr = netip.MustParseAddr("127.0.0.1")
		}
		for _, cls := range []Class{AdminRead, AdminWrite, Class(class % uint8(numClasses))} {
			denial := c.Check(cls, ext, body, addr)
			needsAccount := cls == AdminRead || cls == AdminWrite ||
				(cls == BrokerCtl && !c.Accounts().global.Match(addr))
			if denial == nil && needsAccount {
				t.Fatalf("class %s admitted without a secret: ext=%q body=%q", cls, ext, body)
			}
		}
		if c.CheckBasic(accessKey, signature, addr, false) == nil {
			t.Fatalf("basic check admitted %q without its secret", accessKey)
		}
		_, _ = ParsePatternList(fields)
	})
}
