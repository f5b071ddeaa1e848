package test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// httpResolver is the Apache Go client's HTTP resolver of url. The client
// keeps a snapshot of the last answer under the user's home; the test
// removes it, so no later run can resolve from a stale file.
func httpResolver(t *testing.T, url string) *primitive.HttpResolver {
	t.Helper()
	t.Setenv("NAMESRV_ADDR", "") // the resolver's fallback: must not help
	if u, err := user.Current(); err == nil {
		sum := md5.Sum([]byte(url))
		snapshot := filepath.Join(u.HomeDir, "logs", "rocketmq-go", "snapshot", "nameserver_addr-"+hex.EncodeToString(sum[:]))
		t.Cleanup(func() { _ = os.Remove(snapshot) })
	}
	return primitive.NewHttpResolver("gonamesrv-e2e", url)
}

// TestAddressServerWithTheGoClientsHTTPResolver: a producer and an admin
// client of the Apache Go client, given only the side port's
// /rocketmq/nsaddr URL, find the NameServer and fetch routes; the subgroup
// form and a live addressServerList change are answered too.
func TestAddressServerWithTheGoClientsHTTPResolver(t *testing.T) {
	ns := startNamesrvHTTP(t)
	status, body, err := ns.get("/rocketmq/nsaddr")
	if err != nil || status != http.StatusOK || string(body) != ns.Addr {
		t.Fatalf("nsaddr: %d %q %v, want this server's address %s", status, body, err, ns.Addr)
	}
	if status, body, _ := ns.get("/rocketmq/nsaddr-unit1?nofix=1"); status != http.StatusOK || string(body) != ns.Addr {
		t.Fatalf("unit subgroup: %d %q", status, body)
	}
	broker := nstest.NewClient(t, ns.Addr)
	nstest.MustCode(t, nstest.Register(t, broker, nstest.BrokerAMaster), remoting.SUCCESS)
	rlog.SetLogLevel("error")
	url := ns.base + "/rocketmq/nsaddr"

	adm, err := admin.NewAdmin(admin.WithResolver(httpResolver(t, url)))
	if err != nil {
		t.Fatalf("admin: %v", err)
	}
	t.Cleanup(func() { _ = adm.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	queues, err := adm.FetchPublishMessageQueues(ctx, nstest.SharedTopic)
	if err != nil || len(queues) != int(nstest.BrokerAMaster.Topics[nstest.SharedTopic]) {
		t.Fatalf("admin through the HTTP resolver: %d queues, %v; want %d", len(queues), err, nstest.BrokerAMaster.Topics[nstest.SharedTopic])
	}

	routesBefore := value(ns.scrape(t), "rocketmq_namesrv_requests_total", "code", "GET_ROUTEINFO_BY_TOPIC", "result", "success")
	p, err := producer.NewDefaultProducer(producer.WithNsResolver(httpResolver(t, url)), producer.WithRetry(0),
		producer.WithSendMsgTimeout(2*time.Second), producer.WithGroupName("gonamesrv-e2e-nsaddr"))
	if err != nil {
		t.Fatalf("producer: %v", err)
	}
	if err := p.Start(); err != nil {
		t.Fatalf("producer start: %v", err)
	}
	t.Cleanup(func() { _ = p.Shutdown() })
	// Nothing listens at the registered broker address, so the send fails,
	// but only after the producer fetched the topic's route from the
	// NameServer it found through the URL.
	_, sendErr := p.SendSync(ctx, primitive.NewMessage(nstest.SharedTopic, []byte("x")))
	eventually(t, 10*time.Second, "the producer's route query answered", func() error {
		got := value(ns.scrape(t), "rocketmq_namesrv_requests_total", "code", "GET_ROUTEINFO_BY_TOPIC", "result", "success")
		if got <= routesBefore {
			return fmt.Errorf("route queries answered %v, still %v (send: %v)", got, routesBefore, sendErr)
		}
		return nil
	})
	if sendErr != nil && strings.Contains(strings.ToLower(sendErr.Error()), "route") && strings.Contains(strings.ToLower(sendErr.Error()), "not") {
		t.Fatalf("the producer found no route: %v", sendErr)
	}

	// addressServerList is protected: one update would redirect every
	// HTTP-resolver client.
	before, _, _ := ns.get("/rocketmq/nsaddr")
	update := remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("addressServerList=10.0.0.1:9876;10.0.0.2:9876\n"))
	nstest.MustCode(t, nstest.Invoke(t, broker, update), remoting.NO_PERMISSION)
	if status, body, _ := ns.get("/rocketmq/nsaddr"); status != http.StatusOK || body == nil || string(body) == "10.0.0.1:9876;10.0.0.2:9876" {
		t.Fatalf("nsaddr after the refused update: %d %q (before: %v)", status, body, before)
	}
}
