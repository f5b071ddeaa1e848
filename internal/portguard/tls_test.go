package portguard

import (
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestTLSOptionsOfTheJavaWords(t *testing.T) {
	if (TLSKeys{Mode: TLSModeDisabled}).Options() != nil {
		t.Fatal("disabled has options")
	}
	got := TLSKeys{Mode: TLSModeEnforcing, CertPath: "c", KeyPath: "k", TrustCertPath: "ca", NeedClientAuth: ClientAuthRequire,
		HandshakeMaxConcurrent: 7, HandshakeTimeoutMillis: 1500}.Options()
	if got == nil || got.Mode != remoting.TLSEnforcing || got.ClientAuth != tls.RequireAndVerifyClientCert || got.CertPath != "c" ||
		got.KeyPath != "k" || got.TrustCertPath != "ca" || got.MaxHandshakes != 7 || got.HandshakeTimeout != 1500*time.Millisecond {
		t.Fatalf("enforcing options %+v", got)
	}
	if got := (TLSKeys{Mode: TLSModePermissive, NeedClientAuth: ClientAuthOptional}).Options(); got.Mode != remoting.TLSPermissive ||
		got.ClientAuth != tls.VerifyClientCertIfGiven {
		t.Fatalf("permissive options %+v", got)
	}
	if len(TLSModeWords) != len(tlsModes) || len(ClientAuthWords) != len(clientAuths) {
		t.Fatal("a word without its mode")
	}
}

// ValidateWords takes Java's words only, naming the key of a bad one.
func TestValidateWordsNamesTheBadKey(t *testing.T) {
	if err := (TLSKeys{Mode: TLSModeDisabled, NeedClientAuth: ClientAuthNone}).ValidateWords(); err != nil {
		t.Fatalf("Java's words refused: %v", err)
	}
	for key, k := range map[string]TLSKeys{
		"tls.server.mode":             {Mode: "on", NeedClientAuth: ClientAuthNone},
		"tls.server.need.client.auth": {Mode: TLSModeDisabled, NeedClientAuth: "always"},
	} {
		if err := k.ValidateWords(); err == nil || !strings.Contains(err.Error(), key+"=") {
			t.Errorf("%+v: %v, want an error naming %s", k, err, key)
		}
	}
}
