package remoting

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// TLSMode is Java's tls.server.mode.
type TLSMode int

// The modes of tls.server.mode.
const (
	// TLSDisabled serves plain connections on gnet (the default).
	TLSDisabled TLSMode = iota
	// TLSPermissive serves TLS and plain connections on the same port, told
	// apart by the first byte (0x16 opens a TLS handshake), as Java does.
	TLSPermissive
	// TLSEnforcing serves TLS connections only.
	TLSEnforcing
)

// TLSOptions configure TLS on the server's port (ServerConfig.TLS).
type TLSOptions struct {
	Mode TLSMode
	// CertPath and KeyPath are the PEM certificate chain and key.
	CertPath, KeyPath string
	// TrustCertPath is the PEM bundle client certificates are verified
	// against; needed when ClientAuth asks for certificates.
	TrustCertPath string
	// ClientAuth is tls.NoClientCert (none), tls.VerifyClientCertIfGiven
	// (optional) or tls.RequireAndVerifyClientCert (require).
	ClientAuth tls.ClientAuthType
	// MaxHandshakes bounds the handshakes in progress at once
	// (DefaultMaxHandshakes when 0); HandshakeTimeout bounds each
	// (DefaultHandshakeTimeout when 0).
	MaxHandshakes    int
	HandshakeTimeout time.Duration
}

// CertReloadInterval is how often the certificate, key and trust files are
// read back; a changed set that loads replaces the one in force for new
// handshakes, one that does not is logged and the old set stays.
const CertReloadInterval = time.Second

// DefaultHandshakeTimeout bounds a TLS handshake on the server's port,
// and DefaultMaxHandshakes the handshakes in progress at once: each holds
// a goroutine, its buffers and a descriptor counted by the connection cap.
const (
	DefaultHandshakeTimeout = 10 * time.Second
	DefaultMaxHandshakes    = 256
)

// certSource holds the TLS configuration in force and follows its files.
type certSource struct {
	opts    TLSOptions
	log     *logrus.Entry
	current atomic.Pointer[tls.Config]
	lastSum [sha256.Size]byte
	badSum  [sha256.Size]byte
	stop    chan struct{}
	done    sync.WaitGroup
}

// newCertSource loads the files; an error means TLS cannot start.
func newCertSource(opts TLSOptions, log *logrus.Entry) (*certSource, error) {
	cs := &certSource{opts: opts, log: log, stop: make(chan struct{})}
	data, err := cs.read()
	if err != nil {
		return nil, err
	}
	if err := cs.load(data); err != nil {
		return nil, err
	}
	return cs, nil
}

// read returns the three files' contents, joined.
func (cs *certSource) read() ([][]byte, error) {
	var out [][]byte
	for _, path := range []string{cs.opts.CertPath, cs.opts.KeyPath, cs.opts.TrustCertPath} {
		if path == "" {
			out = append(out, nil)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("tls: read %s: %w", path, err)
		}
		out = append(out, data)
	}
	return out, nil
}

// load builds a configuration from the files' contents and puts it in force.
func (cs *certSource) load(data [][]byte) error {
	cert, err := tls.X509KeyPair(data[0], data[1])
	if err != nil {
		return fmt.Errorf("tls: certificate %s and key %s: %w", cs.opts.CertPath, cs.opts.KeyPath, err)
	}
	cfg := &tls.Config{Certificates: []tls.Certificate{cert}, ClientAuth: cs.opts.ClientAuth, MinVersion: tls.VersionTLS12}
	if cs.opts.ClientAuth != tls.NoClientCert {
		if len(data[2]) == 0 {
			return errors.New("tls: client certificates are asked for but tls.server.trustCertPath is not set")
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(data[2]) {
			return fmt.Errorf("tls: no PEM certificate in %s", cs.opts.TrustCertPath)
		}
		cfg.ClientCAs = pool
	}
	cs.current.Store(cfg)
	cs.lastSum = sha256.Sum256(bytes.Join(data, []byte{0}))
	return nil
}

// config is the tls.Config of new handshakes: each takes the set in force.
func (cs *certSource) config() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			return cs.current.Load(), nil
		},
	}
}

// watch reloads the files every CertReloadInterval until close.
func (cs *certSource) watch() {
	cs.done.Add(1)
	go func() {
		defer cs.done.Done()
		ticker := time.NewTicker(CertReloadInterval)
		defer ticker.Stop()
		for {
			select {
			case <-cs.stop:
				return
			case <-ticker.C:
				cs.reload()
			}
		}
	}()
}

func (cs *certSource) reload() {
	data, err := cs.read()
	sum := sha256.Sum256(bytes.Join(data, []byte{0}))
	if err == nil && sum == cs.lastSum {
		return
	}
	if err == nil {
		err = cs.load(data)
	}
	if err != nil {
		if sum != cs.badSum {
			cs.badSum = sum
			cs.log.WithError(err).Error("tls certificates not reloaded; the ones loaded before stay in force")
		}
		return
	}
	cs.log.WithField("certPath", cs.opts.CertPath).Info("tls certificates reloaded")
}

func (cs *certSource) close() {
	close(cs.stop)
	cs.done.Wait()
}
