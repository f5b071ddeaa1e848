package test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestDashboardOrderInHeadlessChromium: the rendered page lists a group's
// members together, master first, even when a slave's address sorts before
// its master's; broker and topic names in natural order (T-2 before T-10);
// and a topic writable on only some of its broker names as "2 of 3
// brokers".
func TestDashboardOrderInHeadlessChromium(t *testing.T) {
	ctx := browser(t)
	ns := startNamesrvHTTP(t)
	c := nstest.NewClient(t, ns.Addr)
	topics := func() map[string]int32 { return map[string]int32{"T-0": 2, "T-1": 2, "T-2": 2, "T-10": 2} }
	brokers := []nstest.Broker{
		{Cluster: "C", Name: "broker-2", ID: 0, Addr: "127.0.0.1:10951", Topics: topics()},
		{Cluster: "C", Name: "broker-2", ID: 1, Addr: "127.0.0.1:10911", Topics: topics()},
		{Cluster: "C", Name: "broker-10", ID: 0, Addr: "127.0.0.1:10931", Topics: topics()},
		{Cluster: "C", Name: "broker-10", ID: 1, Addr: "127.0.0.1:10961", Topics: topics()},
		{Cluster: "C", Name: "broker-3", ID: 0, Addr: "127.0.0.1:10921", Topics: topics()},
	}
	for _, b := range brokers {
		nstest.MustCode(t, nstest.Register(t, c, b), remoting.SUCCESS)
	}
	nstest.MustCode(t, nstest.Invoke(t, c, remoting.NewRequest(remoting.WIPE_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "broker-3"}, nil)), remoting.SUCCESS)

	if err := chromedp.Do(ctx, chromedp.Navigate(ns.base+"/?refresh=1000")); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	waitText(t, ctx, "#brokers-page", "five brokers listed", func(s string) bool { return strings.HasSuffix(s, "of 5") })
	waitText(t, ctx, `#brokers tbody tr[data-addr="127.0.0.1:10921"]`, "broker-3 drained", func(s string) bool { return strings.Contains(s, "drained") })
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#brokers tbody tr"), (tr) => tr.cells[1].innerText + "/" + tr.cells[2].innerText + "/" + tr.dataset.addr)`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"broker-2/master/127.0.0.1:10951", "broker-2/slave/127.0.0.1:10911", "broker-3/master/127.0.0.1:10921",
		"broker-10/master/127.0.0.1:10931", "broker-10/slave/127.0.0.1:10961"}
	if !slices.Equal(rows, want) {
		t.Fatalf("broker rows\n got %q\nwant %q", rows, want)
	}

	waitText(t, ctx, "#topics-page", "the four topics listed", func(s string) bool { return strings.HasSuffix(s, "of 4") })
	names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#topics tbody tr"), (tr) => tr.dataset.topic)`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"T-0", "T-1", "T-2", "T-10"}; !slices.Equal(names, want) {
		t.Fatalf("topic rows %q, want %q", names, want)
	}
	for _, topic := range names {
		cell := waitText(t, ctx, `#topics tbody tr[data-topic="`+topic+`"] td:last-child`, topic+" writable on some brokers",
			func(s string) bool { return s != "" })
		if cell != "2 of 3 brokers" {
			t.Errorf("%s writable cell %q, want %q", topic, cell, "2 of 3 brokers")
		}
	}
}
