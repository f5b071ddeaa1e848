package broker

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gonamesrv/gonamesrv/internal/portguard"
)

// The broker's own port takes the protection our NameServer's and
// controller's ports take, under their keys: ACL 1.0 (aclEnable, aclFile,
// adminWhiteRemoteAddresses) and TLS (tls.server.*). aclAnonymousRouteRead
// does not apply: the broker serves no route reads. All are read at start;
// none is changeable over the wire (onlineKeys).

// Defaults of the TLS handshake bounds, the controller's.
const (
	// DefaultTLSHandshakeMaxConcurrent bounds the TLS handshakes in progress.
	DefaultTLSHandshakeMaxConcurrent = 256
	// DefaultTLSHandshakeTimeoutMillis bounds one TLS handshake.
	DefaultTLSHandshakeTimeoutMillis = 10_000
)

// aclFileName is the accounts file's name: Java's broker reads
// $ROCKETMQ_HOME/conf/plain_acl.yml.
const aclFileName = "plain_acl.yml"

// Access is the protection of the broker's listenPort.
type Access struct {
	// AclEnable turns ACL 1.0 on: every request is signed by an account of
	// AclFile, writes by an admin account (access.go).
	AclEnable bool
	// AclFile is the accounts file (plain_acl.yml, reloaded when it
	// changes); "" is Java's $ROCKETMQ_HOME/conf/plain_acl.yml, or
	// <storePathRootDir>/config/plain_acl.yml without ROCKETMQ_HOME.
	AclFile string
	// AdminWhiteRemoteAddresses, when set, refuses writes from every other
	// address, with or without ACL.
	AdminWhiteRemoteAddresses string

	// TLSServerMode is tls.server.mode: disabled, permissive (TLS and plain
	// TCP) or enforcing (TLS only).
	TLSServerMode string
	// TLSServerCertPath, TLSServerKeyPath, TLSServerTrustCertPath and
	// TLSServerNeedClientAuth are tls.server.certPath, .keyPath,
	// .trustCertPath and tls.server.need.client.auth (none, optional,
	// require).
	TLSServerCertPath, TLSServerKeyPath, TLSServerTrustCertPath, TLSServerNeedClientAuth string
	// TLSHandshakeMaxConcurrent and TLSHandshakeTimeoutMillis bound the
	// handshakes in progress and each one.
	TLSHandshakeMaxConcurrent int
	TLSHandshakeTimeoutMillis int64
}

// defaultAccess is ACL and TLS off, as Java's broker.conf defaults.
func defaultAccess() Access {
	return Access{TLSServerMode: portguard.TLSModeDisabled, TLSServerNeedClientAuth: portguard.ClientAuthNone,
		TLSHandshakeMaxConcurrent: DefaultTLSHandshakeMaxConcurrent, TLSHandshakeTimeoutMillis: DefaultTLSHandshakeTimeoutMillis}
}

// ACLFile is aclFile, else Java's place under ROCKETMQ_HOME, else beside
// topics.json.
func (c *Config) ACLFile() string {
	if c.AclFile != "" {
		return c.AclFile
	}
	if home := os.Getenv("ROCKETMQ_HOME"); home != "" {
		return filepath.Join(home, "conf", aclFileName)
	}
	return filepath.Join(c.StorePathRootDir, "config", aclFileName)
}

// ACLKeys are the port's ACL settings.
func (c *Config) ACLKeys() portguard.ACLKeys {
	return portguard.ACLKeys{AclEnable: c.AclEnable, AclFile: c.ACLFile(), AdminWhiteRemoteAddresses: c.AdminWhiteRemoteAddresses}
}

// TLSKeys are the port's tls.server.* settings.
func (a Access) TLSKeys() portguard.TLSKeys {
	return portguard.TLSKeys{Mode: a.TLSServerMode, CertPath: a.TLSServerCertPath, KeyPath: a.TLSServerKeyPath,
		TrustCertPath: a.TLSServerTrustCertPath, NeedClientAuth: a.TLSServerNeedClientAuth,
		HandshakeMaxConcurrent: a.TLSHandshakeMaxConcurrent, HandshakeTimeoutMillis: a.TLSHandshakeTimeoutMillis}
}

// validate checks the TLS words and that a TLS port has its certificate.
func (a Access) validate() error {
	if err := a.TLSKeys().ValidateWords(); err != nil {
		return fmt.Errorf("%w: %w", ErrBrokerConfig, err)
	}
	if a.TLSServerMode != portguard.TLSModeDisabled && (a.TLSServerCertPath == "" || a.TLSServerKeyPath == "") {
		return fmt.Errorf("%w: tls.server.mode=%s needs tls.server.certPath and tls.server.keyPath", ErrBrokerConfig, a.TLSServerMode)
	}
	return nil
}

// addProperties lists the port's keys (none is a secret).
func (a Access) addProperties(props map[string]string) {
	props["aclEnable"] = strconv.FormatBool(a.AclEnable)
	props["aclFile"] = a.AclFile
	props["adminWhiteRemoteAddresses"] = a.AdminWhiteRemoteAddresses
	props["tls.server.mode"] = a.TLSServerMode
	props["tls.server.certPath"] = a.TLSServerCertPath
	props["tls.server.keyPath"] = a.TLSServerKeyPath
	props["tls.server.trustCertPath"] = a.TLSServerTrustCertPath
	props["tls.server.need.client.auth"] = a.TLSServerNeedClientAuth
	props["tlsHandshakeMaxConcurrent"] = strconv.Itoa(a.TLSHandshakeMaxConcurrent)
	props["tlsHandshakeTimeoutMillis"] = strconv.FormatInt(a.TLSHandshakeTimeoutMillis, 10)
}
