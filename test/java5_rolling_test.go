package test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// startJavaMaster starts a plain Java 5.3.3 master (brokerId 0, no
// controller) registered with every NameServer of namesrv ("a;b"), with
// autoCreateTopicEnable=false: a producer that gets TOPIC_NOT_EXIST must
// not be rescued by the default topic's route, so a missing route shows as
// a failed send.
func startJavaMaster(t *testing.T, build, cluster, name, namesrv string) *javaProc {
	t.Helper()
	base, ok := nstest.FreePorts(0, 2, 3)
	if !ok {
		t.Fatal("no free ports for a Java broker")
	}
	port := base + 2 // its fast port is listenPort-2, its HA port listenPort+1
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	conf := strings.Join([]string{
		"brokerClusterName=" + cluster, "brokerName=" + name, "brokerId=0",
		"namesrvAddr=" + namesrv, "listenPort=" + strconv.Itoa(port), "brokerIP1=127.0.0.1",
		"storePathRootDir=" + store, "storePathCommitLog=" + filepath.Join(store, "commitlog"),
		"mappedFileSizeCommitLog=67108864", "mappedFileSizeConsumeQueue=300000",
		"autoCreateTopicEnable=false", "autoCreateSubscriptionGroup=true",
	}, "\n") + "\n"
	confPath := filepath.Join(dir, "broker.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := javaArgs(t, build, "512m", dir, "rmq.broker.logback.xml", "org.apache.rocketmq.broker.BrokerStartup", "-c", confPath)
	return startJava(t, fmt.Sprintf("java-broker-%s", name), net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), dir, cmd)
}

// javaRollingClients compiles testdata/java5/RollingClients.java against the
// build and starts it: a Java push consumer of every topic and producers
// sending to each, through both NameServers, until its standard input is
// closed. Its "ROUND n" lines count into rounds; its other lines are kept.
type javaRollingClients struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	rounds atomic.Int64
	mu     sync.Mutex
	lines  []string
	done   chan struct{}
}

func startJavaRollingClients(t *testing.T, build, namesrv string, topics []string) *javaRollingClients {
	t.Helper()
	cp, err := os.ReadFile(filepath.Join(build, "classpath.txt"))
	if err != nil {
		t.Fatal(err)
	}
	classes := t.TempDir()
	javac := exec.Command("javac", "-nowarn", "-cp", strings.TrimSpace(string(cp)), "-d", classes,
		filepath.Join("testdata", "java5", "RollingClients.java"))
	if msg, err := javac.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, msg)
	}
	cmd := javaArgs(t, build, "384m", t.TempDir(), "rmq.client.logback.xml", "RollingClients", namesrv, strings.Join(topics, ","))
	i := slices.Index(cmd.Args, "-cp")
	cmd.Args[i+1] = classes + string(os.PathListSeparator) + cmd.Args[i+1]
	c := &javaRollingClients{cmd: cmd, done: make(chan struct{})}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the Java clients: %v", err)
	}
	go func() {
		defer close(c.done)
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			line := scanner.Text()
			if strings.HasPrefix(line, "ROUND ") {
				c.rounds.Add(1)
				continue
			}
			c.mu.Lock()
			c.lines = append(c.lines, line)
			c.mu.Unlock()
		}
		_ = cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = c.stdin.Close()
		select {
		case <-c.done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

// finish closes the clients' input and waits (at most 2 minutes) for their
// TOTAL line, returned as key=value counts, with the lines before it.
func (c *javaRollingClients) finish(t *testing.T) (map[string]int64, []string) {
	t.Helper()
	_ = c.stdin.Close()
	select {
	case <-c.done:
	case <-time.After(2 * time.Minute):
		_ = c.cmd.Process.Kill()
		<-c.done
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, line := range c.lines {
		if rest, ok := strings.CutPrefix(line, "TOTAL "); ok {
			totals := map[string]int64{}
			for _, field := range strings.Fields(rest) {
				k, v, _ := strings.Cut(field, "=")
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatalf("TOTAL field %q: %v", field, err)
				}
				totals[k] = n
			}
			return totals, c.lines
		}
	}
	t.Fatalf("the Java clients printed no TOTAL line:\n%s", strings.Join(c.lines, "\n"))
	return nil, nil
}

// java5RollingRestart registers two Java 5.3.3 masters with a pair of our
// NameServers started with extra, runs a Java push consumer and Java
// producers (a fresh one each round: it picks a NameServer of the two and
// has no route cached) while each NameServer is restarted in turn, SIGTERM
// then kill -9, and returns the clients' totals and lines and the restarts'
// figures.
func java5RollingRestart(t *testing.T, build string, extra ...string) (map[string]int64, []string, []restartFigure) {
	t.Helper()
	pair := startWarmPair(t, extra...)
	namesrv := pair.a.Addr + ";" + pair.b.Addr
	var brokers []*javaProc
	for _, name := range []string{"rolling-java-a", "rolling-java-b"} {
		brokers = append(brokers, startJavaMaster(t, build, "RollingJavaCluster", name, namesrv))
	}
	var topics []string
	for i := range rollingTopics {
		topics = append(topics, fmt.Sprintf("RollingJavaTopic-%d", i))
	}
	adm := newGoAdmin(t, pair.a.Addr, pair.b.Addr)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, topic := range topics {
		for _, b := range brokers {
			if err := adm.CreateTopic(ctx, admin.WithTopicCreate(topic), admin.WithBrokerAddrCreate(b.Addr),
				admin.WithReadQueueNums(4), admin.WithWriteQueueNums(4)); err != nil {
				t.Fatalf("create %s on %s: %v", topic, b.Addr, err)
			}
		}
	}
	eventually(t, 60*time.Second, "both brokers' topics on both NameServers", func() error {
		for _, topic := range topics {
			for _, addr := range []string{pair.a.Addr, pair.b.Addr} {
				data, code, err := routeOf(addr, topic)
				if err != nil || code != remoting.SUCCESS || len(data.QueueDatas) != 2 {
					return fmt.Errorf("%s on %s: code %d %v", topic, addr, code, err)
				}
			}
		}
		return nil
	})

	clients := startJavaRollingClients(t, build, namesrv, topics)
	waitRounds(t, clients.rounds.Load, 3, "the Java clients run before the first restart")
	figures := restartInTurn(t, pair, topics, clients.rounds.Load)
	totals, lines := clients.finish(t)
	for _, f := range figures {
		if f.answeredAll > 0 {
			t.Logf("%s restarted (%s): answered every topic %s after its start (at the first ask: %v)",
				f.server, f.how, f.answeredAll.Round(time.Millisecond), f.atFirstAsk)
		} else {
			t.Logf("%s restarted (%s): %d of %d topics TOPIC_NOT_EXIST at the first ask, not every topic answered while the clients ran %d rounds",
				f.server, f.how, f.notExistFirst, rollingTopics, rollingRoundsUp)
		}
	}
	t.Logf("Java clients: %d rounds, %v", clients.rounds.Load(), totals)
	return totals, lines, figures
}

// Issue 37 item 4 with Java: during a rolling restart of a pair of our
// NameServers with warm start from peers, Java 5.3.3 producers and a push
// consumer, on Java 5.3.3 brokers registered with both, get no
// TOPIC_NOT_EXIST and no failed send, the consumer gets every message sent,
// and each restarted server answers every topic at the first ask. A fresh
// Java client whose chosen NameServer is down fails that one route query to
// connect (it tries no other for it; its send's retries do): counted apart,
// as no NameServer can answer while it is down; so is a send whose own route
// query died with the NameServer killed under it (seen 1 in 256). The same restart with
// peerWarmStartTimeoutMillis=0 shows what warm start prevents: the Java
// clients get TOPIC_NOT_EXIST and sends fail.
func TestJava5RollingRestartWithJavaClients(t *testing.T) {
	build := java5Build(t)
	t.Run("warm start from peers", func(t *testing.T) {
		totals, lines, figures := java5RollingRestart(t, build)
		for _, f := range figures {
			if !f.atFirstAsk {
				t.Errorf("%s restarted (%s) did not answer every topic at the first ask: %d TOPIC_NOT_EXIST", f.server, f.how, f.notExistFirst)
			}
		}
		for _, key := range []string{"routeNotExist", "routeOtherErrors", "sendsFailed", "notConsumed"} {
			if totals[key] != 0 {
				t.Errorf("%s=%d, want 0; the clients said:\n%s", key, totals[key], strings.Join(lines, "\n"))
			}
		}
		// A send whose route query died with the NameServer being killed
		// under it (sendsNameServerDown) met a dead server, not a missing
		// route; every other send went through.
		if totals["sends"] == 0 || totals["sentOk"]+totals["sendsNameServerDown"] != totals["sends"] {
			t.Errorf("sends %d, sent OK %d, a NameServer down %d", totals["sends"], totals["sentOk"], totals["sendsNameServerDown"])
		}
		t.Logf("sends %d: sent OK %d, failed with a NameServer being stopped under them %d", totals["sends"], totals["sentOk"], totals["sendsNameServerDown"])
	})
	t.Run("no warm start", func(t *testing.T) {
		totals, lines, _ := java5RollingRestart(t, build, "-peerWarmStartTimeoutMillis", "0")
		if totals["routeNotExist"] == 0 || totals["sendsFailed"] == 0 {
			t.Errorf("without warm start the Java clients got %d TOPIC_NOT_EXIST and %d failed sends, want some of each:\n%s",
				totals["routeNotExist"], totals["sendsFailed"], strings.Join(lines, "\n"))
		}
	})
}
