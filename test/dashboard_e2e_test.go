package test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// chromiumPath finds Debian's chromium (CI installs it).
func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}

// browser starts headless Chromium with only the flags that keep it on
// loopback: no proxy but a dead one, no name resolution but localhost, no
// background, component or sync traffic.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		t.Skip("no chromium binary on PATH (apt-get install chromium): the dashboard browser test is skipped")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.ProxyServer("http://127.0.0.1:9"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"),
		chromedp.WindowSize(1400, 1000),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// textOf is the rendered text of the first element matching sel.
func textOf(ctx context.Context, sel string) (string, error) {
	return chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
}

// waitText polls the rendered text of sel until it satisfies ok.
func waitText(t *testing.T, ctx context.Context, sel, what string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var text string
	var err error
	for time.Now().Before(deadline) {
		if text, err = textOf(ctx, sel); err == nil && ok(text) {
			return text
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s: %s shows %q (%v)", what, sel, text, err)
	return ""
}

// TestDashboardInHeadlessChromium: the embedded page, loaded in a real
// browser from the binary's side port, shows the registered brokers with
// their roles, a heartbeat age that moves, a searchable paged topic list
// whose entries show their route, a drained broker, and the KV config.
func TestDashboardInHeadlessChromium(t *testing.T) {
	ctx := browser(t)
	ns := startNamesrvHTTP(t)
	c := nstest.NewClient(t, ns.Addr)
	many := nstest.Broker{Cluster: "BulkCluster", Name: "broker-bulk", Addr: "127.0.0.1:10941", HAAddr: "127.0.0.1:10942",
		Topics: map[string]int32{}, Version: route.DataVersion{Counter: 3, Timestamp: 1700000002000}}
	for i := range 2000 {
		many.Topics[fmt.Sprintf("Bulk%04d", i)] = 2
	}
	for _, b := range []nstest.Broker{nstest.BrokerAMaster, nstest.BrokerASlave, nstest.BrokerB, many} {
		nstest.MustCode(t, nstest.Register(t, c, b), remoting.SUCCESS)
	}
	nstest.MustCode(t, nstest.Invoke(t, c, kvRequest(remoting.PUT_KV_CONFIG, "ORDER_TOPIC_CONFIG", "TopicA", "broker-a:4")), remoting.SUCCESS)

	if err := chromedp.Do(ctx, chromedp.Navigate(ns.base+"/?refresh=1000")); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	masterRow := `#brokers tbody tr[data-addr="` + nstest.BrokerAMaster.Addr + `"]`
	row := waitText(t, ctx, masterRow, "broker-a's master listed", func(s string) bool { return strings.Contains(s, "broker-a") })
	if !strings.Contains(row, "master") || !strings.Contains(row, "DefaultCluster") || !strings.Contains(row, "writable") {
		t.Fatalf("master row %q", row)
	}
	slaveRow := waitText(t, ctx, `#brokers tbody tr[data-addr="`+nstest.BrokerASlave.Addr+`"]`, "the slave listed",
		func(s string) bool { return strings.Contains(s, "slave") })
	if !strings.Contains(slaveRow, "broker-a") {
		t.Fatalf("slave row %q", slaveRow)
	}
	waitText(t, ctx, "#brokers tbody", "broker-b and the bulk broker listed", func(s string) bool {
		return strings.Contains(s, "broker-b") && strings.Contains(s, "broker-bulk")
	})

	// The heartbeat age moves with the page's own refreshes.
	first := waitText(t, ctx, masterRow+" .hb-age", "a heartbeat age", func(s string) bool { return s != "" })
	waitText(t, ctx, masterRow+" .hb-age", "the heartbeat age changed", func(s string) bool { return s != first })

	// Topics are paged on the server: 2,003 topics, 50 rendered.
	waitText(t, ctx, "#topics-page", "the topic page count", func(s string) bool { return strings.HasSuffix(s, "of 2003") })
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#topics tbody tr").length`))
	if err != nil || rows != 50 {
		t.Fatalf("%d topic rows rendered (%v), want one page of 50", rows, err)
	}

	// Search a topic and open its route.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#topic-search"), "TopicA")); err != nil {
		t.Fatal(err)
	}
	waitText(t, ctx, "#topics-page", "the search narrowed the list", func(s string) bool { return strings.HasSuffix(s, "of 1") })
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#topics tbody tr[data-topic="TopicA"]`), chromedp.NodeVisible)); err != nil {
		t.Fatal(err)
	}
	routeText := waitText(t, ctx, "#route", "TopicA's route shown", func(s string) bool {
		return strings.Contains(s, "TopicA") && strings.Contains(s, nstest.BrokerASlave.Addr)
	})
	if !strings.Contains(routeText, "RW-") || !strings.Contains(routeText, nstest.BrokerAMaster.Addr) {
		t.Fatalf("route panel %q, want broker-a's queues with RW- and both addresses", routeText)
	}

	// Draining broker-b shows on its row.
	nstest.MustCode(t, nstest.Invoke(t, c, remoting.NewRequest(remoting.WIPE_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "broker-b"}, nil)), remoting.SUCCESS)
	waitText(t, ctx, `#brokers tbody tr[data-addr="`+nstest.BrokerB.Addr+`"]`, "broker-b drained", func(s string) bool {
		return strings.Contains(s, "drained")
	})
	waitText(t, ctx, "#kv", "the KV config", func(s string) bool { return strings.Contains(s, "broker-a:4") })
	waitText(t, ctx, "#status", "the status line", func(s string) bool { return strings.Contains(s, "ready") && strings.Contains(s, "4 live brokers") })
}
