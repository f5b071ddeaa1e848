package testcerts

import (
	"crypto/x509"
	"testing"
)

// TestWriteGroupCertsServeBothWays: every member's certificate chains to
// the group's CA for server and for client authentication, and not to
// another group's CA.
func TestWriteGroupCertsServeBothWays(t *testing.T) {
	g, err := WriteGroup(t.TempDir(), 2)
	if err != nil {
		t.Fatal(err)
	}
	other, err := WriteGroup(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		pair, err := g.Pair(i)
		if err != nil {
			t.Fatal(err)
		}
		cert, err := x509.ParseCertificate(pair.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, usage := range []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth} {
			if _, err := cert.Verify(x509.VerifyOptions{Roots: g.CAPool, KeyUsages: []x509.ExtKeyUsage{usage}}); err != nil {
				t.Errorf("member %d for usage %d: %v", i, usage, err)
			}
		}
		if _, err := cert.Verify(x509.VerifyOptions{Roots: other.CAPool}); err == nil {
			t.Errorf("member %d verified against another group's CA", i)
		}
	}
}
