package test

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestMqadminPartialFailuresKeepTheGoodServersOutput: every command that
// asks several servers (the NameServers of -n, the controllers of -a, the
// brokers of a cluster) asks them all, prints what the live ones answered,
// names the dead one on stderr and exits 2; exit 1 only when none answered.
func TestMqadminPartialFailuresKeepTheGoodServersOutput(t *testing.T) {
	ns := startNamesrv(t)
	ctl := startControllerGroup(t, 1)
	dead := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	both, deadFirst := ns.Addr+";"+dead, dead+";"+ns.Addr
	wantPartial := func(r mqadminResult, what, class, stdout string) {
		t.Helper()
		if r.code != 2 || !strings.Contains(r.stdout, stdout) || strings.Contains(r.stdout, dead) ||
			!strings.Contains(r.stderr, dead) || !strings.Contains(r.stderr, class+" command failed: 1 of 2 "+what+" failed") {
			t.Errorf("%s with a dead server: exit %d\nstdout: %s\nstderr: %s", class, r.code, r.stdout, r.stderr)
		}
	}

	wantPartial(mqadmin(t, "getNamesrvConfig", "-n", both), "name servers", "GetNamesrvConfigCommand", "============"+ns.Addr+"============\n")
	wantPartial(mqadmin(t, "getNamesrvConfig", "-n", both, "-json"), "name servers", "GetNamesrvConfigCommand", `"`+ns.Addr+`": {`)
	wantPartial(mqadmin(t, "updateNamesrvConfig", "-n", deadFirst, "-k", "orderMessageEnable", "-v", "true"), "name servers",
		"UpdateNamesrvConfigCommand", "update name server config success!["+ns.Addr+"]\norderMessageEnable : true\n"+ns.Addr+": changed now: orderMessageEnable\n")
	wantPartial(mqadmin(t, "updateKvConfig", "-n", deadFirst, "-s", "NS", "-k", "k", "-v", "v"), "name servers",
		"UpdateKvConfigCommand", "create or update kv config to namespace success.\n")
	wantPartial(mqadmin(t, "getControllerConfig", "-a", ctl.addrs[0]+";"+dead), "controllers", "GetControllerConfigSubCommand",
		"============"+ctl.addrs[0]+"============\n")
	wantPartial(mqadmin(t, "updateControllerConfig", "-a", dead+";"+ctl.addrs[0], "-k", "notifyBrokerRoleChanged", "-v", "false"),
		"controllers", "UpdateControllerConfigSubCommand", "update controller config success!["+ctl.addrs[0]+"]\n")
	wantPartial(mqadmin(t, "getControllerMetaData", "-a", ctl.addrs[0]+";"+dead), "controllers", "GetControllerMetaDataSubCommand",
		"============"+ctl.addrs[0]+"============\n#ControllerGroup\te2e\n")

	// A refusal does not stop the update either: both NameServers are asked
	// and named; none took it, so exit 1.
	ns2 := startNamesrv(t)
	r := mqadmin(t, "updateNamesrvConfig", "-n", ns.Addr+";"+ns2.Addr, "-k", "rocketmqHome", "-v", "/tmp")
	if r.code != 1 || r.stdout != "" || strings.Count(r.stderr, "CODE: 16") != 2 || !strings.Contains(r.stderr, ns2.Addr) ||
		!strings.Contains(r.stderr, "all 2 name servers failed") {
		t.Errorf("updateNamesrvConfig refused by both: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	// The brokers of a cluster: a live one and a registered one that does
	// not answer (its set's name sorts first).
	live := startBroker(t, brokerSpec{cluster: "partial-cluster", name: "set-live", nameServers: []*process{ns}})
	silent := nstest.BrokerAMaster
	silent.Cluster, silent.Name, silent.Addr = "partial-cluster", "set-dead", dead
	nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, ns.Addr), silent), remoting.SUCCESS)
	eventually(t, 15*time.Second, "set-live registered", func() error {
		if info, err := clusterInfoOf(ns.Addr); err != nil || len(info.ClusterAddrTable["partial-cluster"]) != 2 {
			return errString("not yet")
		}
		return nil
	})
	wantPartial(mqadmin(t, "updateTopic", "-n", ns.Addr, "-c", "partial-cluster", "-t", "PartialTopic"), "brokers",
		"UpdateTopicSubCommand", "create topic to "+live.Addr+" success.\nTopicConfig [topicName=PartialTopic")
	eventually(t, 15*time.Second, "PartialTopic routed", func() error {
		_, err := call(ns.Addr, remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "PartialTopic"})
		return err
	})
	wantPartial(mqadmin(t, "deleteTopic", "-n", ns.Addr, "-c", "partial-cluster", "-t", "PartialTopic"), "brokers",
		"DeleteTopicSubCommand", "delete topic [PartialTopic] from cluster [partial-cluster] success.\ndelete topic [PartialTopic] from NameServer success.\n")
}

// TestMqadminUnknownNamesExitNonZero: an unknown broker, set, topic or
// cluster is an error naming it (Java printed "OK, 0" or nothing, exit 0),
// and a command of Java's mqadmin that we do not have points at Java's tool.
func TestMqadminUnknownNamesExitNonZero(t *testing.T) {
	ns := startNamesrv(t)
	ctl := startControllerGroup(t, 1)
	ctl.leader(t, 30*time.Second)
	dead := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, ns.Addr), nstest.BrokerAMaster), remoting.SUCCESS)
	cases := []struct {
		args   []string
		stderr string
	}{
		{[]string{"wipeWritePerm", "-n", ns.Addr, "-b", "no-such-broker"}, "no broker named no-such-broker is registered"},
		{[]string{"addWritePerm", "-n", ns.Addr, "-b", "no-such-broker"}, "no broker named no-such-broker is registered"},
		{[]string{"getSyncStateSet", "-n", ns.Addr, "-a", ctl.addrs[0], "-b", "no-such"}, "broker set no-such is not known to the controller"},
		{[]string{"getSyncStateSet", "-n", ns.Addr, "-a", ctl.addrs[0], "-c", "no-such-cluster"}, `cluster "no-such-cluster" not found`},
		{[]string{"getBrokerEpoch", "-n", ns.Addr, "-b", "nosuch"}, "broker set nosuch not found"},
		{[]string{"getBrokerEpoch", "-n", ns.Addr, "-c", "no-such-cluster"}, `cluster "no-such-cluster" not found`},
		{[]string{"deleteTopic", "-n", ns.Addr, "-c", nstest.BrokerAMaster.Cluster, "-t", "NoSuchTopic"}, "topic [NoSuchTopic] not found"},
		{[]string{"deleteTopic", "-n", ns.Addr, "-c", "no-such-cluster", "-t", "NoSuchTopic"}, `cluster "no-such-cluster" not found`},
		// Already non-zero before: kept so.
		{[]string{"topicRoute", "-n", ns.Addr, "-t", "NoSuchTopic"}, "CODE: 17"},
		{[]string{"updateOrderConf", "-n", ns.Addr, "-t", "NoSuchTopic", "-m", "get"}, "CODE: 22"},
		{[]string{"cleanBrokerMetadata", "-a", ctl.addrs[0], "-bn", "no-such", "-c", "c", "-b", "1"}, "Broker no-such is not existed"},
		// A dead first controller of -a: the leader is asked of the next.
		{[]string{"getSyncStateSet", "-n", ns.Addr, "-a", dead + ";" + ctl.addrs[0], "-b", "no-such"}, "broker set no-such is not known to the controller"},
		{[]string{"cleanBrokerMetadata", "-a", dead + ";" + ctl.addrs[0], "-bn", "no-such", "-c", "c", "-b", "1"}, "Broker no-such is not existed"},
		{[]string{"producerConnection", "-n", ns.Addr}, "producerConnection is a command of Apache RocketMQ's mqadmin (tools) that this route-tier mqadmin does not have; use Java's mqadmin for it"},
		{[]string{"topicRout", "-n", ns.Addr}, "the closest command is topicRoute"},
	}
	for _, tc := range cases {
		r := mqadmin(t, tc.args...)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, tc.stderr) {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s\nwant exit 1 and %q", tc.args, r.code, r.stdout, r.stderr, tc.stderr)
		}
	}
	// The known broker still gets Java's line.
	if out := mustMqadmin(t, "wipeWritePerm", "-n", ns.Addr, "-b", nstest.BrokerAMaster.Name); !strings.HasPrefix(out, "wipe write perm of broker["+nstest.BrokerAMaster.Name+"] in name server["+ns.Addr+"] OK, ") {
		t.Errorf("wipeWritePerm of a known broker: %q", out)
	}
}
