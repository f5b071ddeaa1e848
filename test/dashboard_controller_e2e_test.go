package test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
)

// startEmbeddedControllerNamesrv is a NameServer with its side port and an
// embedded 1-node controller (enableControllerInNamesrv); it returns the
// side port and the controller's address.
func startEmbeddedControllerNamesrv(t *testing.T) (*sidePort, string) {
	t.Helper()
	file, ctlAddr := embeddedControllerFile(t)
	return startNamesrvHTTP(t, "-c", file), ctlAddr
}

// The NameServer's side port shows an embedded controller: /v1/controller
// (the JSON of cmd/controller's side port), its rocketmq_controller_
// metrics beside the NameServer's on /metrics; without a controller the
// endpoint is a 404.
func TestNamesrvSidePortServesEmbeddedController(t *testing.T) {
	plain := startNamesrvHTTP(t)
	eventually(t, 10*time.Second, "/v1/controller 404 without a controller", func() error {
		if code, body, err := plain.get("/v1/controller"); err != nil || code != http.StatusNotFound || !strings.Contains(string(body), "enableControllerInNamesrv") {
			return fmt.Errorf("%d %s %v", code, body, err)
		}
		return nil
	})

	ns, ctlAddr := startEmbeddedControllerNamesrv(t)
	b := ctltest.NewBroker(t, "cluster-d", "set-d", []string{ctlAddr})
	b.Register(t)
	b.Heartbeat(t, 0, 0, 60000)
	var st struct {
		Role       string `json:"role"`
		Serving    bool   `json:"serving"`
		LeaderID   string `json:"leaderId"`
		Group      string `json:"group"`
		BrokerSets []struct {
			BrokerName     string  `json:"brokerName"`
			MasterBrokerID *int64  `json:"masterBrokerId"`
			MasterEpoch    int32   `json:"masterEpoch"`
			SyncStateSet   []int64 `json:"syncStateSet"`
			Members        []struct {
				Alive bool `json:"alive"`
			} `json:"members"`
		} `json:"brokerSets"`
	}
	eventually(t, 20*time.Second, "the embedded controller serving", func() error {
		ns.getJSON(t, "/v1/controller", http.StatusOK, &st)
		if !st.Serving {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	})
	ctltest.MustCode(t, b.Elect(t), 0)
	ns.getJSON(t, "/v1/controller", http.StatusOK, &st)
	if st.Role != "Leader" || st.LeaderID != "n0" || st.Group != "embedded" || len(st.BrokerSets) != 1 {
		t.Fatalf("/v1/controller %+v", st)
	}
	set := st.BrokerSets[0]
	if set.BrokerName != "set-d" || set.MasterBrokerID == nil || *set.MasterBrokerID != b.ID || set.MasterEpoch != 1 ||
		len(set.Members) != 1 || !set.Members[0].Alive {
		t.Fatalf("/v1/controller set %+v", set)
	}
	code, metrics, err := ns.get("/metrics")
	if err != nil || code != http.StatusOK || !strings.Contains(string(metrics), "\nrocketmq_controller_role 1\n") ||
		!strings.Contains(string(metrics), `rocketmq_controller_elections_total{result="0",trigger="broker"} 1`) ||
		!strings.Contains(string(metrics), "\nrocketmq_namesrv_live_brokers ") {
		t.Fatalf("/metrics of the NameServer with a controller (%d, %v):\n%s", code, err, metrics)
	}
}

// TestDashboardControllerPanelInHeadlessChromium: the dashboard shows the
// embedded controller's panel (role, leader, each set's master, epochs and
// members' liveness) and hides it on a NameServer without one.
func TestDashboardControllerPanelInHeadlessChromium(t *testing.T) {
	ctx := browser(t)
	plain := startNamesrvHTTP(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(plain.base+"/?refresh=1000")); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	// A refresh has completed (the peers table is filled) and the panel is hidden.
	waitText(t, ctx, "#peers tbody", "the peers table", func(s string) bool { return strings.Contains(s, "no peers configured") })
	waitText(t, ctx, "#refreshed", "a finished refresh", func(s string) bool { return s != "never" })
	if hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("controller-section").hidden`)); err != nil || !hidden {
		t.Fatalf("controller panel without a controller: hidden=%v %v", hidden, err)
	}

	ns, ctlAddr := startEmbeddedControllerNamesrv(t)
	b1 := ctltest.NewBroker(t, "cluster-d", "set-d", []string{ctlAddr})
	b2 := ctltest.NewBroker(t, "cluster-d", "set-d", []string{ctlAddr})
	b1.Register(t)
	b2.Register(t)
	heartbeatLoop(t, b1, b2)
	eventually(t, 20*time.Second, "an election", func() error {
		if resp := b1.Elect(t); resp.Code != 0 {
			return fmt.Errorf("elect: %d %s", resp.Code, resp.Remark)
		}
		return nil
	})
	if err := chromedp.Do(ctx, chromedp.Navigate(ns.base+"/?refresh=1000")); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	note := waitText(t, ctx, "#controller-note", "the controller panel", func(s string) bool { return strings.Contains(s, "Leader") })
	if !strings.Contains(note, "group embedded") || !strings.Contains(note, "leader n0 ("+ctlAddr+")") {
		t.Fatalf("controller note %q", note)
	}
	setRow := waitText(t, ctx, `#controller-sets tbody tr[data-broker-name="set-d"]`, "set-d listed", func(s string) bool {
		return strings.Contains(s, b1.Addr+" alive") && strings.Contains(s, b2.Addr+" alive")
	})
	if !strings.Contains(setRow, "cluster-d") {
		t.Fatalf("set row %q", setRow)
	}
	// One member per line, the master (b1, elected) first; the controller
	// group's own members one per line too.
	members, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#controller-sets tbody tr[data-broker-name="set-d"] td.members').innerText`))
	if lines := strings.Split(strings.TrimSpace(members), "\n"); err != nil || len(lines) != 2 ||
		!strings.Contains(lines[0], b1.Addr+" alive") || !strings.Contains(lines[1], b2.Addr+" alive") {
		t.Fatalf("members cell %q (%v), want one line each, the master %s first", members, err, b1.Addr)
	}
	peers, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("controller-peers").innerText`))
	if lines := strings.Split(strings.TrimSpace(peers), "\n"); err != nil || len(lines) != 2 || lines[0] != "peers:" || !strings.HasPrefix(lines[1], "n0 ") {
		t.Fatalf("controller peers %q (%v), want a line per controller", peers, err)
	}
	// The master's connection closes: the row shows it dead and, with no
	// in-sync member left, no master.
	b1.Close()
	waitText(t, ctx, `#controller-sets tbody tr[data-broker-name="set-d"]`, "the master dead and cleared", func(s string) bool {
		return strings.Contains(s, b1.Addr+" dead") && strings.Contains(s, "none")
	})
}
