package test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestConfigPendingRestartMarked: a key that applies only at the next start,
// updated over the wire, is marked pending in GET_NAMESRV_CONFIG (a comment
// line a Java properties reader skips, so the key=value lines parse as
// before) and in /v1/config, with the value running and the one stored; a
// live key is not marked. Before, both showed the stored value as if it ran.
func TestConfigPendingRestartMarked(t *testing.T) {
	ns := startNamesrvHTTP(t)
	c := nstest.NewClient(t, ns.Addr)
	var before struct {
		Config map[string]string `json:"config"`
	}
	ns.getJSON(t, "/v1/config", http.StatusOK, &before)
	running := before.Config["defaultThreadPoolNums"]
	update := remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("defaultThreadPoolNums=3\nsupportActingMaster=true\n"))
	nstest.MustCode(t, nstest.Invoke(t, c, update), remoting.SUCCESS)

	body := string(nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil)).Body)
	if want := "# pending restart: defaultThreadPoolNums=3 (running: " + running + ")\n"; !strings.Contains(body, want) {
		t.Fatalf("GET_NAMESRV_CONFIG lacks %q:\n%s", want, body)
	}
	if strings.Contains(body, "pending restart: supportActingMaster") {
		t.Fatal("a live key is marked pending")
	}
	props, err := javaprops.Parse([]byte(body))
	if err != nil || props["defaultThreadPoolNums"] != "3" {
		t.Fatalf("the body no longer parses as properties: %v %v", err, props["defaultThreadPoolNums"])
	}
	for key := range props {
		if strings.HasPrefix(key, "#") || strings.Contains(key, "pending") {
			t.Fatalf("the mark parsed as a key: %q", key)
		}
	}
	var view struct {
		Pending map[string]struct {
			Running string `json:"running"`
			Next    string `json:"next"`
		} `json:"pendingRestart"`
	}
	ns.getJSON(t, "/v1/config", http.StatusOK, &view)
	if p, ok := view.Pending["defaultThreadPoolNums"]; !ok || p.Running != running || p.Next != "3" || len(view.Pending) != 1 {
		t.Fatalf("/v1/config pendingRestart = %+v, want defaultThreadPoolNums running %s, next 3", view.Pending, running)
	}
}
