package portguard

import (
	"crypto/tls"
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
