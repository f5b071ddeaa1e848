package namesrv

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// TestStartSummaryNamesACLAndTLSModesInWords: the summary line of a default
// start says ACL is off and TLS disabled, in words.
func TestStartSummaryNamesACLAndTLSModesInWords(t *testing.T) {
	s := startServer(t, nil)
	for _, e := range s.hook.AllEntries() {
		if e.Message != startSummary {
			continue
		}
		acl, _ := e.Data["acl"].(string)
		tls, _ := e.Data["tls"].(string)
		if !strings.HasPrefix(acl, "off: every request is served without a signature") || !strings.HasPrefix(tls, "disabled: plain TCP only") {
			t.Fatalf("summary acl %q tls %q", acl, tls)
		}
		return
	}
	t.Fatal("no start summary")
}

// TestModeWordsForEveryMode: each ACL and TLS mode has its own words.
func TestModeWordsForEveryMode(t *testing.T) {
	cfg := config.Default()
	cfg.AclEnable, cfg.AclFile, cfg.AclAnonymousRouteRead = true, "/etc/plain_acl.yml", false
	if got := aclModeWords(cfg); !strings.HasPrefix(got, "on: every request must be signed by an account of /etc/plain_acl.yml") {
		t.Errorf("acl on: %q", got)
	}
	cfg.AclAnonymousRouteRead = true
	if got := aclModeWords(cfg); !strings.Contains(got, "except route reads and lists") {
		t.Errorf("acl with anonymous route reads: %q", got)
	}
	cfg.TLSServerMode, cfg.TLSServerNeedClientAuth = config.TLSModeEnforcing, config.ClientAuthRequire
	if got := tlsModeWords(cfg); !strings.HasPrefix(got, "enforcing: TLS only") || !strings.Contains(got, "required") {
		t.Errorf("tls enforcing: %q", got)
	}
	cfg.TLSServerMode, cfg.TLSServerNeedClientAuth = config.TLSModePermissive, config.ClientAuthNone
	if got := tlsModeWords(cfg); !strings.HasPrefix(got, "permissive: TLS and plain TCP") || !strings.Contains(got, "not asked for") {
		t.Errorf("tls permissive: %q", got)
	}
}
