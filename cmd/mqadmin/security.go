package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// securityOptions sign the requests (ACL 1.0) and turn TLS on towards the
// NameServers. Without -ak/-sk the keys of $ROCKETMQ_HOME/conf/tools.yml
// are used when the file exists, as the Java tools do; a secret in
// tools.yml stays out of the process list, where -sk shows.
var securityOptions = []option{
	{short: "ak", long: "accessKey", hasArg: true, desc: "ACL access key (default: conf/tools.yml under ROCKETMQ_HOME)"},
	{short: "sk", long: "secretKey", hasArg: true, desc: "ACL secret key (default: conf/tools.yml under ROCKETMQ_HOME)"},
	{short: "tls", long: "useTLS", desc: "talk TLS to the name servers (the server's certificate is not verified, as Java's default)"},
}

// toolsFile is the Java tools' credentials file under ROCKETMQ_HOME.
const toolsFile = "conf/tools.yml"

// credentials are the flags' keys, else those of tools.yml.
func credentials(args parsedArgs, rocketmqHome string) (aclsign.Credentials, error) {
	cred := aclsign.Credentials{AccessKey: args.get("ak"), SecretKey: args.get("sk")}
	if args.has("ak") || args.has("sk") || rocketmqHome == "" {
		return cred, nil
	}
	path := filepath.Join(rocketmqHome, toolsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cred, nil
	}
	if err != nil {
		return cred, fmt.Errorf("read %s: %w", path, err)
	}
	var file struct {
		AccessKey string `yaml:"accessKey"`
		SecretKey string `yaml:"secretKey"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		return cred, fmt.Errorf("parse %s: %w", path, err)
	}
	return aclsign.Credentials{AccessKey: file.AccessKey, SecretKey: file.SecretKey}, nil
}

// nameServerConfig is the client configuration for NameServer addresses.
func nameServerConfig(args parsedArgs, rocketmqHome string) (remoting.ClientConfig, error) {
	cred, err := credentials(args, rocketmqHome)
	if err != nil {
		return remoting.ClientConfig{}, err
	}
	cfg := remoting.ClientConfig{Sign: aclsign.Signer(cred)}
	if args.has("tls") {
		if cfg.TLS, err = remoting.ClientTLS("", "", ""); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}
