package namesrv

import (
	"crypto/tls"
	"time"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// tlsModes and clientAuths map the Java words of tls.server.mode and
// tls.server.need.client.auth (checked by config.Validate) to the server's.
var (
	tlsModes = map[string]remoting.TLSMode{
		config.TLSModeDisabled: remoting.TLSDisabled, config.TLSModePermissive: remoting.TLSPermissive,
		config.TLSModeEnforcing: remoting.TLSEnforcing,
	}
	clientAuths = map[string]tls.ClientAuthType{
		config.ClientAuthNone: tls.NoClientCert, config.ClientAuthOptional: tls.VerifyClientCertIfGiven,
		config.ClientAuthRequire: tls.RequireAndVerifyClientCert,
	}
)

// tlsOptions is the remoting port's TLS of cfg; nil when disabled.
func tlsOptions(cfg *config.Config) *remoting.TLSOptions {
	mode := tlsModes[cfg.TLSServerMode]
	if mode == remoting.TLSDisabled {
		return nil
	}
	return &remoting.TLSOptions{
		Mode:          mode,
		CertPath:      cfg.TLSServerCertPath,
		KeyPath:       cfg.TLSServerKeyPath,
		TrustCertPath: cfg.TLSServerTrustCertPath,
		ClientAuth:    clientAuths[cfg.TLSServerNeedClientAuth],

		MaxHandshakes:    cfg.TLSHandshakeMaxConcurrent,
		HandshakeTimeout: time.Duration(cfg.TLSHandshakeTimeoutMillis) * time.Millisecond,
	}
}

// TLSConfig is the remoting port's TLS configuration (its certificates,
// reloaded on change), for the HTTP side port to serve HTTPS with; nil
// when tls.server.mode is disabled.
func (ns *NameServer) TLSConfig() *tls.Config { return ns.server.TLSConfig() }
