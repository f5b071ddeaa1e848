package node

import (
	"fmt"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// clientSecurity is the signing and TLS of the controller's own requests
// (5001 to namesrvAddr, NOTIFY_BROKER_ROLE_CHANGED to brokers): cfg's
// credentials (innerClientAuthenticationCredentials, or accessKey and
// secretKey) and, with useTLS, the tls.client.* keys. Read once at start.
func clientSecurity(cfg *config.Config) (remoting.ClientConfig, error) {
	cred, err := cfg.Credentials()
	if err != nil {
		return remoting.ClientConfig{}, err
	}
	out := remoting.ClientConfig{Sign: aclsign.Signer(cred)}
	if cfg.UseTLS {
		if out.TLS, err = remoting.ClientTLS(cfg.TLSClientCertPath, cfg.TLSClientKeyPath, cfg.TLSClientTrustCertPath); err != nil {
			return remoting.ClientConfig{}, fmt.Errorf("useTLS: %w", err)
		}
	}
	return out, nil
}

// client is a remoting client to addr with the node's security and the
// given timeouts (0: remoting's default).
func (n *Node) client(addr string, dial, request time.Duration) *remoting.Client {
	cfg := n.security
	cfg.DialTimeout, cfg.RequestTimeout, cfg.Logger = dial, request, n.log
	return remoting.NewClient(addr, cfg)
}
