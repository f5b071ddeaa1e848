package namesrv

import (
	"fmt"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// The start summary names the ACL and TLS modes in words, so an operator
// reading it learns whether the port takes unsigned requests and plain TCP
// without knowing the keys' defaults.

// aclModeWords says what aclEnable and aclAnonymousRouteRead mean for the
// requests served.
func aclModeWords(cfg *config.Config) string {
	switch {
	case !cfg.AclEnable:
		return "off: every request is served without a signature (aclEnable=false)"
	case cfg.AclAnonymousRouteRead:
		return fmt.Sprintf("on: requests must be signed by an account of %s, except route reads and lists (aclAnonymousRouteRead=true)", cfg.ACLFile())
	default:
		return fmt.Sprintf("on: every request must be signed by an account of %s", cfg.ACLFile())
	}
}

// tlsModeWords says what tls.server.mode means for the remoting port.
func tlsModeWords(cfg *config.Config) string {
	switch cfg.TLSServerMode {
	case config.TLSModeEnforcing:
		return fmt.Sprintf("enforcing: TLS only on the remoting port, plain TCP refused (client certificates: %s)", clientAuthWords(cfg))
	case config.TLSModePermissive:
		return fmt.Sprintf("permissive: TLS and plain TCP both accepted on the remoting port (client certificates: %s)", clientAuthWords(cfg))
	default:
		return "disabled: plain TCP only, no TLS (tls.server.mode=disabled)"
	}
}

func clientAuthWords(cfg *config.Config) string {
	switch cfg.TLSServerNeedClientAuth {
	case config.ClientAuthRequire:
		return "required"
	case config.ClientAuthOptional:
		return "checked when sent"
	default:
		return "not asked for"
	}
}
