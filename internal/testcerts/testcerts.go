// Package testcerts writes a throwaway certificate authority with a server
// and a client certificate, for the TLS tests and for measuring TLS with
// nsbench. It is not for production: the keys are written unencrypted.
package testcerts

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Set is the files Write made, and the client's pair for tls.Config.
type Set struct {
	CACert, ServerCert, ServerKey, ClientCert, ClientKey string
	// CAPool trusts the CA; ClientPair is the client certificate and key.
	CAPool     *x509.CertPool
	ClientPair tls.Certificate
}

// validity of the certificates: long enough for any test run.
const validity = 24 * time.Hour

// Write creates ca.pem, server.pem, server.key, client.pem and client.key
// in dir; the server certificate names 127.0.0.1, ::1 and localhost.
func Write(dir string) (*Set, error) {
	caKey, caCert, caDER, err := newCA()
	if err != nil {
		return nil, err
	}
	set := &Set{
		CACert: filepath.Join(dir, "ca.pem"), ServerCert: filepath.Join(dir, "server.pem"), ServerKey: filepath.Join(dir, "server.key"),
		ClientCert: filepath.Join(dir, "client.pem"), ClientKey: filepath.Join(dir, "client.key"), CAPool: x509.NewCertPool(),
	}
	set.CAPool.AddCert(caCert)
	if err := writePEM(set.CACert, "CERTIFICATE", caDER); err != nil {
		return nil, err
	}
	server := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "namesrv"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(validity),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")}, DNSNames: []string{"localhost"},
	}
	if _, err := issue(server, caCert, caKey, set.ServerCert, set.ServerKey); err != nil {
		return nil, err
	}
	client := &x509.Certificate{
		SerialNumber: big.NewInt(3), Subject: pkix.Name{CommonName: "client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(validity),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if set.ClientPair, err = issue(client, caCert, caKey, set.ClientCert, set.ClientKey); err != nil {
		return nil, err
	}
	return set, nil
}

func newCA() (*ecdsa.PrivateKey, *x509.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ca key: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(validity),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ca certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ca certificate: %w", err)
	}
	return key, cert, der, nil
}

// issue signs template with the CA and writes the certificate and key.
func issue(template, ca *x509.Certificate, caKey *ecdsa.PrivateKey, certPath, keyPath string) (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("key: %w", err)
	}
	der, err := x509.CreateCertificate(rand.Reader, template, ca, &key.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("certificate %s: %w", template.Subject.CommonName, err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("key: %w", err)
	}
	if err := writePEM(certPath, "CERTIFICATE", der); err != nil {
		return tls.Certificate{}, err
	}
	if err := writePEM(keyPath, "PRIVATE KEY", keyDER); err != nil {
		return tls.Certificate{}, err
	}
	return tls.LoadX509KeyPair(certPath, keyPath)
}

func writePEM(path, kind string, der []byte) error {
	data := pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ClientTLS is a client configuration that trusts the CA and names
// 127.0.0.1; withCert adds the client certificate.
func (s *Set) ClientTLS(withCert bool) *tls.Config {
	cfg := &tls.Config{RootCAs: s.CAPool, ServerName: "127.0.0.1"}
	if withCert {
		cfg.Certificates = []tls.Certificate{s.ClientPair}
	}
	return cfg
}
