package scenario

import (
	"crypto/tls"
	"fmt"
	"os"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// The TLS modes of the tls-route scenario: route queries over plain TCP to
// a NameServer with TLS off (the gnet loops), and over TLS to one with
// tls.server.mode=permissive (the net.Conn path; seeding and heartbeats
// stay plain).
const (
	TLSOff = "tls-off"
	TLSOn  = "tls-on"
)

// TLSModes are the modes in the order each round runs them.
var TLSModes = []string{TLSOff, TLSOn}

// TLSRoundScenario names the phase of one mode in one round: "tls-on-r2".
func TLSRoundScenario(mode string, round int) string { return fmt.Sprintf("%s-r%d", mode, round) }

// TLSRoute measures route queries (the Java client's header) at l against
// a fresh NameServer and a fresh zero-work baseline per mode, rounds times,
// the modes taking turns within a round so that each round's ratio shares
// the machine's state.
func TLSRoute(e *Env, spec load.LayoutSpec, l Load, rounds int) (Result, error) {
	if e.StartWith == nil {
		return Result{}, fmt.Errorf("tls-route: the environment cannot start a server with flags of its own")
	}
	dir, err := os.MkdirTemp("", "nsbench-tls-")
	if err != nil {
		return Result{}, fmt.Errorf("tls-route: %w", err)
	}
	defer os.RemoveAll(dir)
	certs, err := testcerts.Write(dir)
	if err != nil {
		return Result{}, fmt.Errorf("tls-route: certificates: %w", err)
	}
	var result Result
	for round := 1; round <= rounds; round++ {
		for _, mode := range TLSModes {
			name := TLSRoundScenario(mode, round)
			var namesrvFlags, baselineFlags []string
			var pipeTLS *tls.Config
			if mode == TLSOn {
				namesrvFlags = []string{"-tls.server.mode", "permissive", "-tls.server.certPath", certs.ServerCert, "-tls.server.keyPath", certs.ServerKey}
				baselineFlags = []string{"-tls-cert", certs.ServerCert, "-tls-key", certs.ServerKey}
				pipeTLS = &tls.Config{RootCAs: certs.CAPool, ServerName: "127.0.0.1", MinVersion: tls.VersionTLS12}
			}
			// the NameServer, then the zero-work baseline the same way (over
			// TLS for tls-on): the generator's headroom of each row
			for _, side := range []struct {
				kind  string
				flags []string
			}{{report.TargetNamesrv, namesrvFlags}, {report.TargetBaseline, baselineFlags}} {
				phases, err := e.freshRoutePhase(side.kind, spec, l, name, side.flags, pipeTLS, nil)
				if err != nil {
					return result, err
				}
				result.Phases = append(result.Phases, phases...)
			}
		}
	}
	return result, nil
}
