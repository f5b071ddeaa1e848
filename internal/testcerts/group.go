package testcerts

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"net"
	"path/filepath"
	"time"
)

// Group is a CA and one certificate per member of a group whose members
// both accept and dial each other (the controller's Raft peers): each
// certificate serves for server and client authentication.
type Group struct {
	CACert string
	// Certs and Keys are member i's files.
	Certs, Keys []string
	CAPool      *x509.CertPool
}

// WriteGroup creates ca.pem and member<i>.pem / member<i>.key for n members
// in dir, each certificate naming 127.0.0.1, ::1 and localhost.
func WriteGroup(dir string, n int) (*Group, error) {
	caKey, caCert, caDER, err := newCA()
	if err != nil {
		return nil, err
	}
	g := &Group{CACert: filepath.Join(dir, "ca.pem"), CAPool: x509.NewCertPool()}
	g.CAPool.AddCert(caCert)
	if err := writePEM(g.CACert, "CERTIFICATE", caDER); err != nil {
		return nil, err
	}
	for i := range n {
		member := &x509.Certificate{
			SerialNumber: big.NewInt(int64(10 + i)), Subject: pkix.Name{CommonName: fmt.Sprintf("member%d", i)},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(validity),
			KeyUsage:    x509.KeyUsageDigitalSignature,
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")}, DNSNames: []string{"localhost"},
		}
		cert, key := filepath.Join(dir, fmt.Sprintf("member%d.pem", i)), filepath.Join(dir, fmt.Sprintf("member%d.key", i))
		if _, err := issue(member, caCert, caKey, cert, key); err != nil {
			return nil, err
		}
		g.Certs, g.Keys = append(g.Certs, cert), append(g.Keys, key)
	}
	return g, nil
}

// Pair loads member i's certificate and key.
func (g *Group) Pair(i int) (tls.Certificate, error) {
	return tls.LoadX509KeyPair(g.Certs[i], g.Keys[i])
}
