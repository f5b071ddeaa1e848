package testcerts

import (
	"crypto/x509"
	"testing"
)

func TestWriteMakesAVerifiableChain(t *testing.T) {
	set, err := Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(set.ClientPair.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: set.CAPool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Fatalf("client certificate does not verify: %v", err)
	}
	other, _ := Write(t.TempDir())
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: other.CAPool, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err == nil {
		t.Fatal("verifies against another CA")
	}
}
