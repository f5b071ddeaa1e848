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
// tools.yml stays out of the process list, where -sk shows. The TLS files
// have Java's client keys as long names (tls.client.trustCertPath, ...),
// and tools.yml may hold them under the same names.
var securityOptions = []option{
	{short: "ak", long: "accessKey", hasArg: true, desc: "ACL access key (default: conf/tools.yml under ROCKETMQ_HOME)"},
	{short: "sk", long: "secretKey", hasArg: true, desc: "ACL secret key (default: conf/tools.yml under ROCKETMQ_HOME)"},
	{short: "tls", long: "useTLS", desc: "talk TLS to the name servers, controllers and brokers (without a trust file the server's certificate is not verified, as Java's default)"},
	{short: "tlsTrust", long: "tls.client.trustCertPath", hasArg: true, desc: "PEM CAs the name servers' certificates must chain to, for the host dialled (implies -tls; default: conf/tools.yml)"},
	{short: "tlsCert", long: "tls.client.certPath", hasArg: true, desc: "PEM client certificate for servers that ask for one (implies -tls; default: conf/tools.yml)"},
	{short: "tlsKey", long: "tls.client.keyPath", hasArg: true, desc: "PEM key of -tlsCert (default: conf/tools.yml)"},
}

// toolsFile is the Java tools' credentials file under ROCKETMQ_HOME.
const toolsFile = "conf/tools.yml"

// toolsConfig is what tools.yml may hold: Java's accessKey and secretKey,
// and our TLS keys under Java's client names.
type toolsConfig struct {
	AccessKey     string `yaml:"accessKey"`
	SecretKey     string `yaml:"secretKey"`
	UseTLS        bool   `yaml:"useTLS"`
	TrustCertPath string `yaml:"tls.client.trustCertPath"`
	CertPath      string `yaml:"tls.client.certPath"`
	KeyPath       string `yaml:"tls.client.keyPath"`
}

// readToolsFile reads tools.yml under rocketmqHome; a missing file (or no
// ROCKETMQ_HOME) is an empty configuration.
func readToolsFile(rocketmqHome string) (toolsConfig, error) {
	var file toolsConfig
	if rocketmqHome == "" {
		return file, nil
	}
	path := filepath.Join(rocketmqHome, toolsFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return file, nil
	}
	if err != nil {
		return file, fmt.Errorf("read %s: %w", path, err)
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		return file, fmt.Errorf("parse %s: %w", path, err)
	}
	return file, nil
}

// credentials are the flags' keys, else those of tools.yml.
func credentials(args parsedArgs, rocketmqHome string) (aclsign.Credentials, error) {
	file, err := readToolsFile(rocketmqHome)
	if err != nil {
		return aclsign.Credentials{}, err
	}
	return credentialsOf(args, file), nil
}

func credentialsOf(args parsedArgs, file toolsConfig) aclsign.Credentials {
	if args.has("ak") || args.has("sk") {
		return aclsign.Credentials{AccessKey: args.get("ak"), SecretKey: args.get("sk")}
	}
	return aclsign.Credentials{AccessKey: file.AccessKey, SecretKey: file.SecretKey}
}

// nameServerConfig is the client configuration for NameServer addresses:
// TLS with -tls, a TLS file flag or useTLS in tools.yml; each TLS file from
// its flag, else from tools.yml.
func nameServerConfig(args parsedArgs, rocketmqHome string) (remoting.ClientConfig, error) {
	file, err := readToolsFile(rocketmqHome)
	if err != nil {
		return remoting.ClientConfig{}, err
	}
	cfg := remoting.ClientConfig{Sign: aclsign.Signer(credentialsOf(args, file))}
	if !args.has("tls") && !args.has("tlsTrust") && !args.has("tlsCert") && !file.UseTLS {
		return cfg, nil
	}
	or := func(flag, fromFile string) string {
		if args.has(flag) {
			return args.get(flag)
		}
		return fromFile
	}
	if cfg.TLS, err = remoting.ClientTLS(or("tlsCert", file.CertPath), or("tlsKey", file.KeyPath), or("tlsTrust", file.TrustCertPath)); err != nil {
		return cfg, err
	}
	return cfg, nil
}
