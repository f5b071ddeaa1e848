package main

import (
	"crypto/tls"
	"flag"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// securityFlags make the query clients (route, heartbeat, mixed) sign
// every request and talk TLS, to measure what each costs. Seeding and the
// registration storm stay plain and unsigned: measure a server in
// tls.server.mode=permissive whose globalWhiteRemoteAddresses admit
// 127.0.0.1, started with -addr.
type securityFlags struct {
	useTLS               bool
	accessKey, secretKey string
}

func (s *securityFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.useTLS, "tls", false, "query clients talk TLS (the server's certificate is not verified)")
	fs.StringVar(&s.accessKey, "ak", "", "query clients sign with this ACL access key (with -sk)")
	fs.StringVar(&s.secretKey, "sk", "", "ACL secret key of -ak")
}

// apply installs the flags on every client load.Dial makes.
func (s securityFlags) apply() {
	sign := aclsign.Signer(aclsign.Credentials{AccessKey: s.accessKey, SecretKey: s.secretKey})
	if !s.useTLS && sign == nil {
		return
	}
	var tlsConfig *tls.Config
	if s.useTLS {
		tlsConfig = &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS12} // a benchmark of the cost, not of trust
	}
	load.ClientHook = func(cfg *remoting.ClientConfig) {
		cfg.Sign, cfg.TLS = sign, tlsConfig
	}
	// The pipelined generator (route, heartbeat) signs its templates once
	// and dials its pipes over TLS.
	load.TemplateSigner, load.PipeTLS = sign, tlsConfig
}
