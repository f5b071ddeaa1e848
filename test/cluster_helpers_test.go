package test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// clusterRegisterPeriod is the registration period the e2e brokers use; it is
// below Java's 10 s floor on purpose (allowShortRegisterPeriod).
const clusterRegisterPeriod = time.Second

// brokerSpec describes one cmd/broker process.
type brokerSpec struct {
	cluster, name string
	id            int64
	nameServers   []*process
	storeDir      string   // "" = a fresh temp dir
	port          int      // 0 = a free port
	extra         []string // more broker.conf lines
}

// startBroker writes a broker.conf for spec and starts cmd/broker with -c.
func startBroker(t *testing.T, spec brokerSpec) *process {
	t.Helper()
	if spec.storeDir == "" {
		spec.storeDir = t.TempDir()
	}
	if spec.port == 0 {
		spec.port = freePort(t)
	}
	var addrs []string
	for _, ns := range spec.nameServers {
		addrs = append(addrs, ns.Addr)
	}
	conf := strings.Join([]string{
		"brokerClusterName=" + spec.cluster,
		"brokerName=" + spec.name,
		"brokerId=" + strconv.FormatInt(spec.id, 10),
		"namesrvAddr=" + strings.Join(addrs, ";"),
		"listenPort=" + strconv.Itoa(spec.port),
		"brokerIP1=127.0.0.1",
		"haListenPort=" + strconv.Itoa(spec.port+1),
		"storePathRootDir=" + spec.storeDir,
		"registerNameServerPeriod=" + strconv.FormatInt(clusterRegisterPeriod.Milliseconds(), 10),
		"allowShortRegisterPeriod=true",
		"slaveSyncPeriod=300",
	}, "\n") + "\n" + strings.Join(spec.extra, "\n") + "\n"
	confPath := filepath.Join(spec.storeDir, "broker.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &process{t: t, name: "broker", args: []string{"-c", confPath}, Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(spec.port)), DataDir: spec.storeDir}
	p.start()
	return p
}

// mqadminResult is one finished mqadmin run.
type mqadminResult struct {
	stdout, stderr string
	code           int
}

// mqadmin runs the mqadmin binary with args and no NAMESRV_ADDR.
func mqadmin(t *testing.T, args ...string) mqadminResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(binDir, "mqadmin"), args...)
	cmd.Env = append(os.Environ(), "NAMESRV_ADDR=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run mqadmin %v: %v", args, err)
	}
	return mqadminResult{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// mustMqadmin runs mqadmin and fails the test on a non-zero exit.
func mustMqadmin(t *testing.T, args ...string) string {
	t.Helper()
	r := mqadmin(t, args...)
	if r.code != 0 {
		t.Fatalf("mqadmin %v exited %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// call sends one request over a fresh connection and returns the answer.
func call(addr string, code int32, ext map[string]string) (*remoting.Command, error) {
	return nstest.Call(addr, code, ext, nil, 3*time.Second)
}

// clusterInfoOf asks a NameServer for its cluster table.
func clusterInfoOf(addr string) (*route.ClusterInfo, error) {
	resp, err := call(addr, remoting.GET_BROKER_CLUSTER_INFO, nil)
	if err != nil {
		return nil, err
	}
	return route.DecodeClusterInfo(resp.Body)
}

// brokerAddrsOf lists every broker address a NameServer knows, as "name/id=addr".
func brokerAddrsOf(addr string) (map[string]bool, error) {
	info, err := clusterInfoOf(addr)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for name, bd := range info.BrokerAddrTable {
		for id, a := range bd.BrokerAddrs {
			known[fmt.Sprintf("%s/%d=%s", name, id, a)] = true
		}
	}
	return known, nil
}

// routeOf asks a NameServer for a topic's route; code is the answer's code.
func routeOf(addr, topic string) (*route.TopicRouteData, int32, error) {
	return nstest.RouteOf(addr, topic, 3*time.Second)
}

// brokerTopics asks a broker for its whole topic table (GET_ALL_TOPIC_CONFIG).
func brokerTopics(addr string) (map[string]route.TopicConfig, error) {
	resp, err := call(addr, remoting.GET_ALL_TOPIC_CONFIG, map[string]string{})
	if err != nil {
		return nil, err
	}
	w, err := route.DecodeTopicConfigSerializeWrapper(resp.Body)
	if err != nil {
		return nil, err
	}
	return w.TopicConfigTable, nil
}
