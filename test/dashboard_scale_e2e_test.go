package test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// dataVersionText is a data version as the page shows it: its counter and
// a local date and time.
var dataVersionText = regexp.MustCompile(`^#\d+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`)

// The topics every broker of the synthetic fleets serves beside its share
// of the numbered ones: a user topic on every broker (its broker names
// collapse to a count), a name long enough to have to wrap, and Java's
// auto-creation template (a system topic, hidden by default).
const (
	wideTopic = "WideTopic"
	longTopic = "Orders.EuropeWest.PaymentAuthorisationEvents.ReplayFromCheckpoint.Partitioned.v2"
)

// fleet is a synthetic set of brokers: brokers masters in clusters of 100,
// topics numbered topics each on two neighbouring brokers.
type fleet struct{ brokers, topics int }

// broker i of the fleet, as its REGISTER_BROKER describes it.
func (f fleet) broker(i int) nstest.Broker {
	b := nstest.Broker{Cluster: fmt.Sprintf("Cluster%02d", i/100), Name: fmt.Sprintf("broker-%04d", i),
		Addr: fmt.Sprintf("10.%d.%d.%d:10911", 1+i/65536, (i/256)%256, i%256), TimeoutMillis: 600_000,
		Version: route.DataVersion{Counter: int64(1 + i%7), Timestamp: time.Now().UnixMilli() - int64(i)*1000},
		Topics:  map[string]int32{wideTopic: 4, longTopic: 2, "TBW102": 8}}
	b.Topics[b.Name], b.Topics[b.Cluster] = 1, 1 // the topics a Java broker creates for its names
	for t := i; t < f.topics; t += f.brokers {
		b.Topics[fmt.Sprintf("Topic%06d", t)] = 4
	}
	prev := (i + f.brokers - 1) % f.brokers
	for t := prev; t < f.topics; t += f.brokers {
		b.Topics[fmt.Sprintf("Topic%06d", t)] = 4
	}
	return b
}

// userTopics is how many topics the page lists with system topics hidden.
func (f fleet) userTopics() int { return f.topics + 2 }

// register sends the fleet's REGISTER_BROKER frames over a few connections
// kept open until the test ends (a closed connection unregisters its
// brokers).
func (f fleet) register(t *testing.T, addr string) {
	t.Helper()
	const conns = 4
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	for c := range conns {
		client := nstest.NewClient(t, addr)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := c; i < f.brokers; i += conns {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				resp, err := client.Invoke(ctx, f.broker(i).RegisterRequest())
				cancel()
				if err == nil && resp.Code != remoting.SUCCESS {
					err = fmt.Errorf("code %d: %s", resp.Code, resp.Remark)
				}
				if err != nil {
					errs <- fmt.Errorf("register broker %d: %w", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// evaluate runs a script in the page.
func evaluate[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](script))
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return v
}

// click clicks the first element matching sel.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	// The dashboard re-renders its tables on each refresh: a node found by
	// the query can be replaced before the click lands on it ("Could not
	// find node with given id"); the selector then names its successor.
	var err error
	for range 5 {
		if err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err == nil || !strings.Contains(err.Error(), "Could not find node") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// search types text into the emptied topic search box.
func search(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	evaluate[bool](t, ctx, `(document.getElementById("topic-search").value = "") === ""`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#topic-search"), text)); err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
}

// noOverflow fails when the page is wider than the 1,400 px window.
func noOverflow(t *testing.T, ctx context.Context, when string) {
	t.Helper()
	if w := evaluate[int](t, ctx, `document.documentElement.scrollWidth`); w > 1400 {
		t.Fatalf("%s: the page is %d px wide in a 1,400 px window", when, w)
	}
}

// screenshots are the PNGs a run writes (make dashboard-screenshots), ""
// for none: the page with a healthy peer, and with a peer whose routes
// differ.
type screenshots struct{ healthy, peersDiffer string }

// TestDashboardAt1000BrokersAnd100000Topics: the page holds at scale in a
// 1,400 px window: no horizontal overflow, the route pane beside the topic
// table, versions as mqadmin names them, sortable columns, system topics
// hidden until asked for, a peer NameServer with the same routes shown
// agreeing, then differing, then killed and shown down.
func TestDashboardAt1000BrokersAnd100000Topics(t *testing.T) {
	dashboardAtScale(t, fleet{brokers: 1000, topics: 100_000}, screenshots{healthy: os.Getenv("DASHBOARD_SCREENSHOT_1000")})
}

// TestDashboardAt50BrokersAnd2000Topics: the same at the size the issue
// measured the old page at.
func TestDashboardAt50BrokersAnd2000Topics(t *testing.T) {
	dashboardAtScale(t, fleet{brokers: 50, topics: 2000},
		screenshots{healthy: os.Getenv("DASHBOARD_SCREENSHOT_50"), peersDiffer: os.Getenv("DASHBOARD_SCREENSHOT_PEERS_DIFFER")})
}

// onlyHere is how many brokers register on the dashboard's NameServer and
// not on its peer once the pair has been seen agreeing.
const onlyHere = 3

func dashboardAtScale(t *testing.T, f fleet, shots screenshots) {
	ctx := browser(t)
	peer := startNamesrv(t)
	// peerRoutesHealMillis 0: a difference is told as one at once, not as
	// healing first, so the differing peer's shot shows it.
	ns := startNamesrvHTTP(t, "-peerNamesrvAddrs", peer.Addr, "-peerRoutesHealMillis", "0")
	began := time.Now()
	// A healthy pair: every broker registers on both NameServers.
	f.register(t, ns.Addr)
	f.register(t, peer.Addr)
	t.Logf("%d brokers with %d topics registered on both NameServers in %s", f.brokers, f.topics, time.Since(began).Round(time.Millisecond))

	if status, body, err := ns.get("/rocketmq/nsaddr"); err != nil || status != 200 || string(body) != ns.Addr+";"+peer.Addr {
		t.Fatalf("nsaddr with a peer: %d %q %v, want %s;%s", status, body, err, ns.Addr, peer.Addr)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(ns.base+"/?refresh=1000")); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	waitText(t, ctx, "#status", "the status line", func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("%d live brokers", f.brokers))
	})
	waitText(t, ctx, "#topics-page", "system topics hidden", func(s string) bool {
		return strings.HasSuffix(s, fmt.Sprintf("of %d", f.userTopics()))
	})
	if rows := evaluate[int](t, ctx, `document.querySelectorAll("#topics tbody tr").length`); rows != 50 {
		t.Fatalf("%d topic rows, want one page of 50", rows)
	}

	// Versions as mqadmin shows them, data versions as times.
	version := waitText(t, ctx, "#brokers tbody tr td.version", "a broker's version", func(s string) bool { return s != "" })
	if version != "V5_3_3" {
		t.Fatalf("version shown as %q, want V5_3_3", version)
	}
	if dv := waitText(t, ctx, "#brokers tbody tr td.data-version", "a data version", func(s string) bool { return s != "" }); !dataVersionText.MatchString(dv) {
		t.Fatalf("data version shown as %q, want a counter and a date", dv)
	}

	// The peer: up, its routes the same as this server's.
	peerRow := `#peers tbody tr[data-addr="` + peer.Addr + `"]`
	waitText(t, ctx, peerRow+" td.peer-state", "the peer up", func(s string) bool { return s == "up" })
	waitText(t, ctx, peerRow+" td.agree", "the peer's routes agreeing", func(s string) bool { return strings.Contains(s, "agree") })

	// Sorting: the wide topic has the most read queues; the broker with the
	// most topics comes first when sorted on topics, largest first.
	click(t, ctx, `#topics th[data-sort="read"]`)
	click(t, ctx, `#topics th[data-sort="read"]`)
	waitText(t, ctx, "#topics tbody tr:first-child", "sorted on read queues, largest first", func(s string) bool {
		return strings.HasPrefix(s, wideTopic)
	})
	if sorted := evaluate[string](t, ctx, `document.querySelector('#topics th[data-sort="read"]').getAttribute("aria-sort")`); sorted != "descending" {
		t.Fatalf("read header aria-sort %q", sorted)
	}
	click(t, ctx, `#brokers th[data-sort="brokerName"]`)
	click(t, ctx, `#brokers th[data-sort="brokerName"]`)
	waitText(t, ctx, "#brokers tbody tr:first-child", "brokers by name, Z to A", func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("broker-%04d", f.brokers-1))
	})

	// The wide topic's broker names collapse to a count, listed on demand.
	cell := `#topics tbody tr[data-topic="` + wideTopic + `"] td.broker-names`
	summary := waitText(t, ctx, cell+" summary", "the collapsed broker names", func(s string) bool { return s != "" })
	if summary != fmt.Sprintf("%d broker names", f.brokers) {
		t.Fatalf("wide topic's broker cell %q", summary)
	}
	click(t, ctx, cell+" summary")
	waitText(t, ctx, cell+" .list", "the broker names listed", func(s string) bool { return strings.Contains(s, "broker-0000") })
	noOverflow(t, ctx, "broker names opened")

	// The route pane stays beside the table, with a wide route open.
	click(t, ctx, `#topics tbody tr[data-topic="`+wideTopic+`"] td:first-child`)
	waitText(t, ctx, "#route h3", "the wide topic's route", func(s string) bool { return s == wideTopic })
	beside := evaluate[bool](t, ctx, `(() => {
		const table = document.querySelector("#topics").getBoundingClientRect();
		const pane = document.querySelector("#route").getBoundingClientRect();
		return pane.left >= table.right - 1 && pane.top < table.bottom && pane.width > 200;
	})()`)
	if !beside {
		t.Fatal("the route pane is not beside the topic table")
	}
	noOverflow(t, ctx, "the wide route open")
	if shots.healthy != "" {
		waitText(t, ctx, peerRow+" td.agree", "the peer still agreeing for the shot", func(s string) bool { return strings.Contains(s, "agree") })
		shoot(t, ctx, ns, shots.healthy)
	}

	// Brokers that register here only make the routes differ, named in the
	// peer's row.
	extra := nstest.NewClient(t, ns.Addr)
	for i := range onlyHere {
		b := nstest.Broker{Cluster: "Cluster00", Name: fmt.Sprintf("broker-here-%d", i), Addr: fmt.Sprintf("10.250.0.%d:10911", i),
			TimeoutMillis: 600_000, Version: route.DataVersion{Counter: 1, Timestamp: time.Now().UnixMilli()},
			Topics: map[string]int32{wideTopic: 4, "TopicHereOnly": 4}}
		nstest.MustCode(t, nstest.Register(t, extra, b), remoting.SUCCESS)
	}
	want := fmt.Sprintf("%d broker addresses only here", onlyHere)
	waitText(t, ctx, peerRow+" td.differ", "the peer's routes differ by "+want, func(s string) bool { return strings.Contains(s, want) })
	noOverflow(t, ctx, "the peer differing")
	if shots.peersDiffer != "" {
		shoot(t, ctx, ns, shots.peersDiffer)
	}

	// The long topic wraps in its cell.
	search(t, ctx, "Orders.")
	waitText(t, ctx, "#topics-page", "the long topic found", func(s string) bool { return strings.HasSuffix(s, "of 1") })
	noOverflow(t, ctx, "the long topic listed")

	// System topics appear when asked for.
	search(t, ctx, "TBW102")
	waitText(t, ctx, "#topics-page", "TBW102 hidden", func(s string) bool { return s == "none" })
	click(t, ctx, "#topic-system")
	waitText(t, ctx, "#topics-page", "TBW102 shown", func(s string) bool { return strings.HasSuffix(s, "of 1") })

	peer.Kill()
	waitText(t, ctx, peerRow+" td.peer-state", "the killed peer down", func(s string) bool { return s == "down" })
	noOverflow(t, ctx, "the end")
}

// shoot saves the page as a PNG, once the charts hold a few samples.
func shoot(t *testing.T, ctx context.Context, ns *sidePort, out string) {
	t.Helper()
	stop := make(chan struct{})
	go func() { // some route queries for the chart
		for {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
				_, _, _ = routeOf(ns.Addr, wideTopic)
			}
		}
	}()
	defer close(stop)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		if evaluate[int](t, ctx, `(document.querySelector("#chart-routes path.line")?.getAttribute("d") || "").split("L").length - 1`) >= 4 {
			break
		}
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
