package main

import (
	"io"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestSecurityFlagsConfigureClients(t *testing.T) {
	defer func() { load.ClientHook = nil }()
	opts := defaultOptions("route")
	if err := opts.flagSet("route", io.Discard).Parse([]string{"-tls", "-ak", "benchKey", "-sk", "benchSecret"}); err != nil {
		t.Fatal(err)
	}
	opts.security.apply()
	var cfg remoting.ClientConfig
	load.ClientHook(&cfg)
	if cfg.TLS == nil || cfg.Sign == nil {
		t.Fatalf("client config %+v", cfg)
	}
	req := load.RouteRequest("T")
	cfg.Sign(req)
	if req.ExtFields["AccessKey"] != "benchKey" || req.ExtFields["Signature"] == "" {
		t.Fatalf("not signed: %v", req.ExtFields)
	}
	load.ClientHook = nil
	plain := defaultOptions("route")
	plain.security.apply()
	if load.ClientHook != nil {
		t.Fatal("a hook without -tls or -ak")
	}
}
