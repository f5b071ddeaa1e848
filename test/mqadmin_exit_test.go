package test

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestMqadminFailuresGoToStderrWithNonZeroExit: what a script reads on
// stdout is only results, and the exit status says whether all of them came.
// A NameServer list with one dead server gives the live one's result on
// stdout, the dead one's failure on stderr and exit 2; an unknown cluster is
// exit 1 with nothing on stdout; a broker that does not answer its runtime
// info keeps its clusterList row, is named on stderr, exit 2.
func TestMqadminFailuresGoToStderrWithNonZeroExit(t *testing.T) {
	ns := startNamesrv(t)
	dead := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	silent := nstest.BrokerB
	silent.Addr = dead // registered, but nothing listens there
	nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, ns.Addr), silent), remoting.SUCCESS)

	r := mqadmin(t, "wipeWritePerm", "-n", ns.Addr+";"+dead, "-b", silent.Name)
	okLine := fmt.Sprintf("wipe write perm of broker[%s] in name server[%s] OK, ", silent.Name, ns.Addr)
	failLine := fmt.Sprintf("wipe write perm of broker[%s] in name server[%s] Failed", silent.Name, dead)
	if r.code != 2 || !strings.HasPrefix(r.stdout, okLine) || strings.Contains(r.stdout, "Failed") ||
		!strings.Contains(r.stderr, failLine) || !strings.Contains(r.stderr, "WipeWritePermSubCommand command failed: 1 of 2 name servers failed") {
		t.Errorf("wipeWritePerm with one dead server: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	r = mqadmin(t, "updateTopic", "-n", ns.Addr, "-c", "NoSuchCluster", "-t", "X")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, `UpdateTopicSubCommand command failed: cluster "NoSuchCluster" not found`) {
		t.Errorf("updateTopic to an unknown cluster: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	for _, args := range [][]string{{"clusterList"}, {"clusterList", "-json"}} {
		r = mqadmin(t, append(args, "-n", ns.Addr)...)
		if r.code != 2 || !strings.Contains(r.stdout, dead) || strings.Contains(r.stdout, "unavailable") ||
			!strings.Contains(r.stderr, "broker "+dead+" ("+silent.Name+") runtime info unavailable") {
			t.Errorf("%v with a silent broker: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
		}
	}

	r = mqadmin(t, "updateOrderConf", "-n", ns.Addr, "-t", "X", "-m", "nonsense")
	if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "usage: mqadmin updateOrderConf") {
		t.Errorf("a bad -m: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}
