package broker

import (
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/broker/agent"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Security is how the broker talks to its NameServers: ACL 1.0 signatures
// with accessKey and secretKey (the keys of Java's broker.conf), and TLS
// with useTLS (Java's client TLS keys for verification and a client
// certificate). The secret key is never printed (-p leaves it out).
type Security struct {
	AccessKey, SecretKey string
	UseTLS               bool
	// TLSTrustCertPath, TLSCertPath and TLSKeyPath are tls.client.trustCertPath,
	// tls.client.certPath and tls.client.keyPath.
	TLSTrustCertPath, TLSCertPath, TLSKeyPath string
}

// clientConfig is the remoting client configuration of NameServer calls.
func (s Security) clientConfig(log *logrus.Entry) (remoting.ClientConfig, error) {
	cfg := remoting.ClientConfig{Logger: log,
		Sign: aclsign.Signer(aclsign.Credentials{AccessKey: s.AccessKey, SecretKey: s.SecretKey})}
	if s.UseTLS {
		tlsCfg, err := remoting.ClientTLS(s.TLSCertPath, s.TLSKeyPath, s.TLSTrustCertPath)
		if err != nil {
			return cfg, fmt.Errorf("%w: %w", ErrBrokerConfig, err)
		}
		cfg.TLS = tlsCfg
	}
	return cfg, nil
}

// Dialer opens remoting clients to NameServers that sign and speak TLS as
// the configuration says.
func (s Security) Dialer(log *logrus.Entry) agent.Dialer {
	return func(addr string) (agent.Invoker, error) {
		cfg, err := s.clientConfig(log)
		if err != nil {
			return nil, err
		}
		return remoting.NewClient(addr, cfg), nil
	}
}

// addProperties lists the security keys that are set; secretKey is never
// listed, so -p never prints it.
func (s Security) addProperties(props map[string]string) {
	for key, value := range map[string]string{"accessKey": s.AccessKey, "tls.client.trustCertPath": s.TLSTrustCertPath,
		"tls.client.certPath": s.TLSCertPath, "tls.client.keyPath": s.TLSKeyPath} {
		if value != "" {
			props[key] = value
		}
	}
	if s.UseTLS {
		props["useTLS"] = "true"
	}
}
