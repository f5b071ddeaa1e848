package config

import (
	"strings"
	"testing"
)

func TestCredentialsFromJavaKeyOr4xPair(t *testing.T) {
	c := Default()
	if cred, err := c.Credentials(); err != nil || !cred.Empty() {
		t.Fatalf("default credentials %+v %v, want none", cred, err)
	}
	c.AccessKey, c.SecretKey = "ak4", "sk4"
	if cred, _ := c.Credentials(); cred.AccessKey != "ak4" || cred.SecretKey != "sk4" {
		t.Fatalf("4.x pair: %+v", cred)
	}
	// Java 5.3's key wins over the pair.
	c.InnerClientCredentials = `{"accessKey":"rocketmq2","secretKey":"12345678"}`
	if cred, _ := c.Credentials(); cred.AccessKey != "rocketmq2" || cred.SecretKey != "12345678" {
		t.Fatalf("innerClientAuthenticationCredentials: %+v", cred)
	}
	c.InnerClientCredentials = `{"accessKey":"rocketmq2","secretKey":"s3cr3t"`
	err := c.Validate()
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("bad JSON: %v (must be refused without quoting the secret)", err)
	}
	c.InnerClientCredentials = `{"accessKey":"rocketmq2"}`
	if _, err := c.Credentials(); err == nil {
		t.Fatal("credentials without a secret accepted")
	}
}

func TestValidateRefusesUnknownTLSWordsAndHalfAPair(t *testing.T) {
	for _, tweak := range []func(*Config){
		func(c *Config) { c.TLSServerMode = "on" },
		func(c *Config) { c.TLSServerNeedClientAuth = "maybe" },
		func(c *Config) { c.AccessKey = "ak" },
	} {
		c := Default()
		c.ControllerDLegerPeers, c.ControllerDLegerSelfID = "n0-127.0.0.1:9877", "n0"
		tweak(c)
		if err := c.Validate(); err == nil {
			t.Errorf("accepted %+v", c)
		}
	}
}

// The secrets are never printed, answered or stored.
func TestSecretsAreNotInProperties(t *testing.T) {
	c := Default()
	c.SecretKey, c.InnerClientCredentials = "sk-secret", `{"accessKey":"a","secretKey":"json-secret"}`
	for what, data := range map[string]string{"properties": string(c.Properties()), "store file": string(c.storeFile())} {
		if strings.Contains(data, "secret") || !strings.Contains(data, "accessKey=") {
			t.Errorf("%s:\n%s", what, data)
		}
	}
}

func TestACLFileDefaultsBesideConfigStorePath(t *testing.T) {
	c := Default()
	c.ConfigStorePath = "/etc/ctl/controller.properties"
	if got := c.ACLFile(); got != "/etc/ctl/plain_acl.yml" {
		t.Fatalf("aclFile default %q", got)
	}
	c.AclFile = "/x/acl.yml"
	if c.ACLFile() != "/x/acl.yml" || c.ACLKeys().AclFile != "/x/acl.yml" {
		t.Fatal("aclFile not used")
	}
}
