package scenario

import (
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The ACL modes of the acl-route scenario: route queries to a NameServer
// with ACL off, with ACL on and unsigned queries (anonymous route reads),
// with ACL on and signed queries.
const (
	ACLOff       = "acl-off"
	ACLAnonymous = "acl-anonymous"
	ACLSigned    = "acl-signed"
)

// ACLModes are the modes in the order each round runs them.
var ACLModes = []string{ACLOff, ACLAnonymous, ACLSigned}

// ACLRoundScenario names the phase of one mode in one round: "acl-signed-r2".
func ACLRoundScenario(mode string, round int) string { return fmt.Sprintf("%s-r%d", mode, round) }

// ACLCredentials are the account the signed queries sign with; aclAccounts
// is the accounts file the ACL modes start the NameServer with: that
// account, and 127.0.0.1 white-listed so that the unsigned seeding
// registers and the brokers' heartbeats pass.
var ACLCredentials = aclsign.Credentials{AccessKey: "benchUser", SecretKey: "benchSecret123"}

const aclAccounts = `globalWhiteRemoteAddresses:
  - 127.0.0.1
accounts:
  - accessKey: benchUser
    secretKey: benchSecret123
    admin: false
`

// ACLRoute measures route queries (the Java client's header) at l against
// a fresh NameServer per mode, rounds times, the modes taking turns within
// a round so that each round's ratios share the machine's state.
func ACLRoute(e *Env, spec load.LayoutSpec, l Load, rounds int) (Result, error) {
	if e.StartWith == nil {
		return Result{}, fmt.Errorf("acl-route: the environment cannot start a server with flags of its own")
	}
	dir, err := os.MkdirTemp("", "nsbench-acl-")
	if err != nil {
		return Result{}, fmt.Errorf("acl-route: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "plain_acl.yml")
	if err := os.WriteFile(file, []byte(aclAccounts), 0o600); err != nil {
		return Result{}, fmt.Errorf("acl-route: %w", err)
	}
	var result Result
	for round := 1; round <= rounds; round++ {
		for _, mode := range ACLModes {
			var extra []string
			if mode != ACLOff {
				extra = []string{"-aclEnable", "-aclFile", file}
			}
			phases, err := e.aclPhase(spec, l, mode, round, extra)
			if err != nil {
				return result, err
			}
			result.Phases = append(result.Phases, phases...)
		}
	}
	return result, nil
}

// aclPhase seeds a NameServer started with extra and measures one mode.
func (e *Env) aclPhase(spec load.LayoutSpec, l Load, mode string, round int, extra []string) ([]report.Phase, error) {
	var sign func(*remoting.Command)
	if mode == ACLSigned {
		sign = aclsign.Signer(ACLCredentials) // the stream's templates are signed as they are made
	}
	return e.freshRoutePhase(report.TargetNamesrv, spec, l, ACLRoundScenario(mode, round), extra, nil, sign)
}

// freshRoutePhase seeds a server of kind started with extra, its query
// pipes over pipeTLS (nil: plain), and measures route queries in the Java
// client's header at l, signed by sign (nil: unsigned), as phase name.
func (e *Env) freshRoutePhase(kind string, spec load.LayoutSpec, l Load, name string, extra []string, pipeTLS *tls.Config,
	sign func(*remoting.Command)) ([]report.Phase, error) {
	server, err := e.StartWith(kind, spec, extra...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	previousTLS := load.PipeTLS
	load.PipeTLS = pipeTLS
	s, err := e.seedOn(server, spec, load.NewRegistrations(load.NewLayout(spec)), l.Conns) // stops server on failure
	load.PipeTLS = previousTLS
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer s.close()
	previousSigner := load.TemplateSigner
	load.TemplateSigner = sign
	stream := load.RouteStreamAs(load.JavaClient, s.layout, s.pipes[:l.Conns], l.InFlight)
	load.TemplateSigner = previousSigner
	return e.run(s, name, stream)
}
