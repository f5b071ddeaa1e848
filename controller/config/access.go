package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
)

// DefaultACLFileName is aclFile's name in configStorePath's folder when
// aclFile is empty: beside the file UPDATE_CONTROLLER_CONFIG writes, as the
// NameServer's is beside kvConfigPath, and not in controllerStorePath,
// whose contents are the group's data (wiped with a store).
const DefaultACLFileName = "plain_acl.yml"

// IsSecret says whether key holds a secret (javaprops.IsSecretKey: secretKey,
// innerClientAuthenticationCredentials): never printed (-p), answered
// (GET_CONTROLLER_CONFIG) or written to configStorePath.
func IsSecret(key string) bool { return javaprops.IsSecretKey(key) }

// ACLFile is aclFile, or plain_acl.yml in an explicit configStorePath's
// folder, else in ~/controller (store_path.go).
func (c *Config) ACLFile() string {
	if c.AclFile != "" {
		return c.AclFile
	}
	if c.ConfigStorePath == "" || c.storePathDefaulted {
		return filepath.Join(defaultACLDir(), DefaultACLFileName)
	}
	return filepath.Join(filepath.Dir(c.ConfigStorePath), DefaultACLFileName)
}

// ACLKeys are the broker-facing port's ACL settings.
func (c *Config) ACLKeys() portguard.ACLKeys {
	return portguard.ACLKeys{AclEnable: c.AclEnable, AclFile: c.ACLFile(), AclAnonymousRouteRead: c.AclAnonymousRouteRead,
		AdminWhiteRemoteAddresses: c.AdminWhiteRemoteAddresses}
}

// TLSKeys are the broker-facing port's tls.server.* settings.
func (c *Config) TLSKeys() portguard.TLSKeys {
	return portguard.TLSKeys{Mode: c.TLSServerMode, CertPath: c.TLSServerCertPath, KeyPath: c.TLSServerKeyPath,
		TrustCertPath: c.TLSServerTrustCertPath, NeedClientAuth: c.TLSServerNeedClientAuth,
		HandshakeMaxConcurrent: c.TLSHandshakeMaxConcurrent, HandshakeTimeoutMillis: c.TLSHandshakeTimeoutMillis}
}

// javaCredentials is the JSON of innerClientAuthenticationCredentials
// (Java 5.3's AuthConfig: {"accessKey":"..","secretKey":".."}).
type javaCredentials struct {
	AccessKey string `json:"accessKey"`
	SecretKey string `json:"secretKey"`
}

// Credentials are what the controller signs its own requests with:
// innerClientAuthenticationCredentials when set, else accessKey and
// secretKey; empty (unsigned) when neither is.
func (c *Config) Credentials() (aclsign.Credentials, error) {
	if c.InnerClientCredentials == "" {
		return aclsign.Credentials{AccessKey: c.AccessKey, SecretKey: c.SecretKey}, nil
	}
	var j javaCredentials
	if err := json.Unmarshal([]byte(c.InnerClientCredentials), &j); err != nil {
		// The value holds a secret: the error must not quote it.
		return aclsign.Credentials{}, fmt.Errorf(`innerClientAuthenticationCredentials: not JSON {"accessKey":"..","secretKey":".."}`)
	}
	if j.AccessKey == "" || j.SecretKey == "" {
		return aclsign.Credentials{}, fmt.Errorf("innerClientAuthenticationCredentials: accessKey or secretKey missing")
	}
	return aclsign.Credentials{AccessKey: j.AccessKey, SecretKey: j.SecretKey}, nil
}

// validateAccess checks the TLS words and the credentials.
func (c *Config) validateAccess() error {
	if err := c.TLSKeys().ValidateWords(); err != nil {
		return err
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		return fmt.Errorf("accessKey and secretKey: set both or neither")
	}
	_, err := c.Credentials()
	return err
}
