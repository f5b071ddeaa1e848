package portguard

import (
	"crypto/tls"
	"fmt"
	"slices"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// The words of tls.server.mode and tls.server.need.client.auth (Java's).
const (
	TLSModeDisabled    = "disabled"
	TLSModePermissive  = "permissive"
	TLSModeEnforcing   = "enforcing"
	ClientAuthNone     = "none"
	ClientAuthOptional = "optional"
	ClientAuthRequire  = "require"
)

// TLSModeWords and ClientAuthWords list the words a config validates
// tls.server.mode and tls.server.need.client.auth against.
var (
	TLSModeWords    = []string{TLSModeDisabled, TLSModePermissive, TLSModeEnforcing}
	ClientAuthWords = []string{ClientAuthNone, ClientAuthOptional, ClientAuthRequire}
)

// tlsModes and clientAuths map those words to the server's.
var (
	tlsModes = map[string]remoting.TLSMode{
		TLSModeDisabled: remoting.TLSDisabled, TLSModePermissive: remoting.TLSPermissive, TLSModeEnforcing: remoting.TLSEnforcing,
	}
	clientAuths = map[string]tls.ClientAuthType{
		ClientAuthNone: tls.NoClientCert, ClientAuthOptional: tls.VerifyClientCertIfGiven,
		ClientAuthRequire: tls.RequireAndVerifyClientCert,
	}
)

// TLSKeys are a port's tls.server.* settings and the handshake bounds.
type TLSKeys struct {
	Mode, CertPath, KeyPath, TrustCertPath, NeedClientAuth string
	// HandshakeMaxConcurrent and HandshakeTimeoutMillis bound the
	// handshakes in progress and each one (remoting's defaults when 0).
	HandshakeMaxConcurrent int
	HandshakeTimeoutMillis int64
}

// Options is the remoting port's TLS of keys; nil when disabled (or the
// mode is a word the config's validation should have refused).
func (k TLSKeys) Options() *remoting.TLSOptions {
	mode, ok := tlsModes[k.Mode]
	if !ok || mode == remoting.TLSDisabled {
		return nil
	}
	return &remoting.TLSOptions{
		Mode:          mode,
		CertPath:      k.CertPath,
		KeyPath:       k.KeyPath,
		TrustCertPath: k.TrustCertPath,
		ClientAuth:    clientAuths[k.NeedClientAuth],

		MaxHandshakes:    k.HandshakeMaxConcurrent,
		HandshakeTimeout: time.Duration(k.HandshakeTimeoutMillis) * time.Millisecond,
	}
}

// ValidateWords checks tls.server.mode and tls.server.need.client.auth
// against Java's words, naming the key and the words it takes.
func (k TLSKeys) ValidateWords() error {
	if !slices.Contains(TLSModeWords, k.Mode) {
		return fmt.Errorf("tls.server.mode=%q: want one of %v", k.Mode, TLSModeWords)
	}
	if !slices.Contains(ClientAuthWords, k.NeedClientAuth) {
		return fmt.Errorf("tls.server.need.client.auth=%q: want one of %v", k.NeedClientAuth, ClientAuthWords)
	}
	return nil
}
