package faults

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// floodSendersEnv, set to a NameServer's address, makes this test binary
// the registration flood's senders (TestFloodRegistrationSenders) instead
// of the suite: TestMain then builds nothing.
const floodSendersEnv = "FAULTS_FLOOD_SENDERS"

// floodSendersNice is the niceness of the senders' process. The flood's
// 512 senders pushed ~1 GB of frames through the same Go runtime as the
// route probe, whose goroutine then waited behind them and their garbage
// collections: the probe timed the test process, not the server (issue 22:
// a probe in a process of its own saw a third of its p99). nsbench's
// storm senders run niced in a child for the same reason.
const floodSendersNice = 10

// floodSenderTally is the line the senders' process ends with, after a
// floodSenderReason line for each reason of its "other" answers.
const (
	floodSenderTally  = "flood senders answered ok/busy/other:"
	floodSenderReason = "flood senders other answer:"
)

// sendLargeRegistrations runs the 2 MB registration flood of
// TestFloodLargeRegistrations against addr from a child process at
// floodSendersNice until stop closes, and adds its answers to answers.
func sendLargeRegistrations(t *testing.T, addr string, stop <-chan struct{}, answers *registrationTally) {
	cmd := exec.Command("nice", "-n", fmt.Sprint(floodSendersNice), os.Args[0], "-test.run=^TestFloodRegistrationSenders$", "-test.count=1")
	cmd.Env = append(os.Environ(), floodSendersEnv+"="+addr)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Errorf("flood senders: %v", err)
		return
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Errorf("flood senders: %v", err)
		return
	}
	if err := cmd.Start(); err != nil {
		t.Errorf("flood senders: start: %v", err)
		return
	}
	tally := make(chan string, 1)
	go func() {
		found := ""
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if line, ok := strings.CutPrefix(scanner.Text(), floodSenderTally); ok {
				found = strings.TrimSpace(line)
			}
			if reason, ok := strings.CutPrefix(scanner.Text(), floodSenderReason); ok {
				answers.keepReason(strings.TrimSpace(reason))
			}
		}
		tally <- found
	}()
	<-stop
	stdin.Close()
	line := <-tally
	if err := cmd.Wait(); err != nil {
		t.Errorf("flood senders: %v", err)
	}
	var ok, busy, other int64
	if _, err := fmt.Sscanf(line, "%d %d %d", &ok, &busy, &other); err != nil {
		t.Errorf("flood senders: tally %q: %v", line, err)
		return
	}
	answers.ok.Add(ok)
	answers.busy.Add(busy)
	answers.other.Add(other)
}

// TestFloodRegistrationSenders is the senders' process of
// TestFloodLargeRegistrations (sendLargeRegistrations starts it): 64
// connections with 8 pipelined 2 MB REGISTER_BROKER each, until its stdin
// closes; it then prints its tally.
func TestFloodRegistrationSenders(t *testing.T) {
	addr := os.Getenv(floodSendersEnv)
	if addr == "" {
		t.Skip("the flood senders' process of TestFloodLargeRegistrations only")
	}
	stop := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	// One body serves every broker (it carries the topics and the data
	// version, not the broker), built before any connection sends, so the
	// 512 senders start together rather than one broker's eight every
	// body-building apart, which at nice 10 left the server time to keep
	// up and the request memory limit unreached.
	topics := map[string]int32{}
	for j := range 20_000 {
		topics[fmt.Sprintf("flood-topic-%05d-padding-to-make-the-body-two-megabytes", j)] = 8
	}
	version := route.DataVersion{Counter: 1, Timestamp: 1}
	body := nstest.Broker{Topics: topics, Version: version}.Body()
	var answers registrationTally
	var wg sync.WaitGroup
	var clients []*remoting.Client
	var brokers []nstest.Broker
	for c := range 64 {
		b := nstest.Broker{Cluster: "FloodCluster", Name: fmt.Sprintf("big-%d", c), Addr: fmt.Sprintf("127.0.0.3:%d", 30000+c),
			Topics: topics, Version: version}
		// a niced process on a busy machine can run too late to see its own
		// connect complete within 2 s: a dial timeout there is the
		// generator's, not the server's
		client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: 10 * time.Second, RequestTimeout: 20 * time.Second})
		defer client.Close()
		clients = append(clients, client)
		brokers = append(brokers, b)
	}
	// Every connection is open before the first registration, as a
	// broker's is long before its registrations: a connect the niced
	// senders' process ran too late to see complete in 10 s (seen under a
	// concurrent build) is the generator's, and is retried here rather
	// than counted against the server. A connection the server closes
	// during the flood is redialled by the client, and a failure then counts.
	for _, client := range clients {
		if err := connectFirst(client); err != nil {
			t.Fatalf("flood senders: %v", err)
		}
	}
	for c, client := range clients {
		b := brokers[c]
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				repeat(stop, 0, func() {
					ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
					resp, err := client.Invoke(ctx, b.RequestWith(body))
					cancel()
					if answers.count(resp, err) {
						time.Sleep(50 * time.Millisecond)
					}
				})
			}()
		}
	}
	wg.Wait()
	for _, reason := range answers.reasons {
		fmt.Println(floodSenderReason, reason)
	}
	fmt.Println(floodSenderTally, answers.ok.Load(), answers.busy.Load(), answers.other.Load())
}

// connectFirst opens client's connection with a request that every
// NameServer answers (GET_NAMESRV_CONFIG), trying three times.
func connectFirst(client *remoting.Client) error {
	var err error
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err = client.Invoke(ctx, remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil))
		cancel()
		if err == nil {
			return nil
		}
	}
	return fmt.Errorf("connect to %s: %w", client.Addr(), err)
}
