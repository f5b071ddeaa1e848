package raftnet

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLSFiles are the controllerRaftTls* keys' files: this node's certificate
// and key, shown both when it accepts and when it dials, and the CA bundle
// every peer's certificate must chain to.
type TLSFiles struct {
	CertPath, KeyPath, TrustCertPath string
}

// tlsConfigs are the two sides of Raft's mutual TLS.
type tlsConfigs struct {
	server, client *tls.Config
}

// loadTLS reads the files; the error names the key whose file is wrong.
func loadTLS(files TLSFiles) (*tlsConfigs, error) {
	pair, err := tls.LoadX509KeyPair(files.CertPath, files.KeyPath)
	if err != nil {
		return nil, fmt.Errorf("controllerRaftTlsCertPath %s / controllerRaftTlsKeyPath %s: %w", files.CertPath, files.KeyPath, err)
	}
	pem, err := os.ReadFile(files.TrustCertPath)
	if err != nil {
		return nil, fmt.Errorf("controllerRaftTlsTrustCertPath: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("controllerRaftTlsTrustCertPath %s: no PEM certificate in it", files.TrustCertPath)
	}
	server := &tls.Config{
		MinVersion:   tls.VersionTLS12,
		Certificates: []tls.Certificate{pair},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    pool,
	}
	// The dialing side verifies the chain itself: peers are listed by IP
	// (or by a name that need not be in their certificate), so Go's host
	// name check would make every certificate name every address it is
	// reached by. It adds nothing here: any certificate of the group's CA
	// is a group member's, and the connection only goes to a listed peer's
	// address. InsecureSkipVerify turns off only Go's own check;
	// VerifyConnection then requires the chain to the CA (RootCAs is kept
	// for the record, Go does not read it with InsecureSkipVerify).
	client := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		Certificates:       []tls.Certificate{pair},
		RootCAs:            pool,
		InsecureSkipVerify: true,
		VerifyConnection:   verifyChain(pool),
	}
	return &tlsConfigs{server: server, client: client}, nil
}

// errNoPeerCertificate is a server that showed none (not possible with Go's
// TLS server, checked all the same).
var errNoPeerCertificate = errors.New("the peer showed no certificate")

// verifyChain checks the server's certificate chains to pool for server
// authentication, without a host name.
func verifyChain(pool *x509.CertPool) func(tls.ConnectionState) error {
	return func(cs tls.ConnectionState) error {
		if len(cs.PeerCertificates) == 0 {
			return errNoPeerCertificate
		}
		inter := x509.NewCertPool()
		for _, c := range cs.PeerCertificates[1:] {
			inter.AddCert(c)
		}
		_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: pool, Intermediates: inter,
			KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
		if err != nil {
			return fmt.Errorf("the peer's Raft certificate: %w", err)
		}
		return nil
	}
}
