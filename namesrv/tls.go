package namesrv

import (
	"crypto/tls"

	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TLSOptions is the remoting port's TLS of cfg's tls.server.* keys and
// handshake bounds; nil when disabled. An embedded controller's port
// serves the same.
func TLSOptions(cfg *config.Config) *remoting.TLSOptions {
	return portguard.TLSKeys{Mode: cfg.TLSServerMode, CertPath: cfg.TLSServerCertPath, KeyPath: cfg.TLSServerKeyPath,
		TrustCertPath: cfg.TLSServerTrustCertPath, NeedClientAuth: cfg.TLSServerNeedClientAuth,
		HandshakeMaxConcurrent: cfg.TLSHandshakeMaxConcurrent, HandshakeTimeoutMillis: cfg.TLSHandshakeTimeoutMillis}.Options()
}

// TLSConfig is the remoting port's TLS configuration (its certificates,
// reloaded on change), for the HTTP side port to serve HTTPS with; nil
// when tls.server.mode is disabled.
func (ns *NameServer) TLSConfig() *tls.Config { return ns.server.TLSConfig() }
