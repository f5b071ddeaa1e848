package test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/route"
)

// TestDashboardAdminDrainsInHeadlessChromium: under aclEnable the page
// loads without credentials, its first /v1 request gets the Basic challenge
// (answered with the admin account, as an operator answers the browser's
// prompt), the admin sees the drain button, confirms the dialog, and the
// drain is seen over the wire; undrain the same way.
func TestDashboardAdminDrainsInHeadlessChromium(t *testing.T) {
	ctx := browser(t)
	ns := startACLNamesrvHTTP(t)
	if a := ns.as(t, aclsign.Credentials{}, http.MethodGet, "/", nil); a.Status != http.StatusOK || !strings.Contains(a.Body, "<html") {
		t.Fatalf("the page without credentials: %d", a.Status)
	}

	browserUser := answerAs(t, ctx, aclAdmin)

	// A long refresh period: the rows change only when the page acts.
	if err := chromedp.Do(ctx, chromedp.Navigate(ns.base+"/?refresh=60000")); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	waitText(t, ctx, "#who", "signed in as the admin", func(s string) bool { return strings.Contains(s, aclAdmin.AccessKey+" (admin)") })
	if browserUser.challenges.Load() == 0 {
		t.Fatal("the page got no Basic challenge")
	}
	row := `#brokers tbody tr[data-addr="127.0.0.1:10911"]`
	waitText(t, ctx, row, "acl-broker listed writable", func(s string) bool { return strings.Contains(s, "writable") })

	for _, step := range []struct {
		action, shows string
		perm          int32
	}{{"drain", "drained", route.PermRead}, {"undrain", "writable", route.PermRead | route.PermWrite}} {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(row+" button.write-"+step.action), chromedp.NodeVisible)); err != nil {
			t.Fatalf("click %s: %v", step.action, err)
		}
		waitText(t, ctx, row, "acl-broker "+step.shows, func(s string) bool { return strings.Contains(s, step.shows) })
		waitText(t, ctx, "#admin-msg", "the "+step.action+" result", func(s string) bool { return strings.HasPrefix(s, step.action+" acl-broker: 2 topics") })
		if perm := permOf(t, ns.Addr); perm != step.perm {
			t.Fatalf("perm %d over the wire after the %s, want %d", perm, step.action, step.perm)
		}
	}
	confirmed := browserUser.confirmed()
	if len(confirmed) != 2 || !strings.HasPrefix(confirmed[0], "Drain acl-broker?") || !strings.HasPrefix(confirmed[1], "Undrain acl-broker?") {
		t.Fatalf("confirmation dialogs %q", confirmed)
	}
}

// TestDashboardUserSeesNoAdminControls: a user account signed in to the
// page sees the brokers but no drain button, and the KV and config tables
// say they are for admins.
func TestDashboardUserSeesNoAdminControls(t *testing.T) {
	ctx := browser(t)
	ns := startACLNamesrvHTTP(t)
	answerAs(t, ctx, aclUser)
	if err := chromedp.Do(ctx, chromedp.Navigate(ns.base+"/?refresh=60000")); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	waitText(t, ctx, "#who", "signed in as the user", func(s string) bool {
		return strings.Contains(s, "signed in as "+aclUser.AccessKey) && !strings.Contains(s, "admin")
	})
	waitText(t, ctx, `#brokers tbody tr[data-addr="127.0.0.1:10911"]`, "acl-broker listed", func(s string) bool { return strings.Contains(s, "acl-broker") })
	waitText(t, ctx, "#kv", "the KV table for admins only", func(s string) bool { return strings.Contains(s, "admins only") })
	buttons, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#brokers button").length`))
	if err != nil || buttons != 0 {
		t.Fatalf("%d buttons for a user (%v)", buttons, err)
	}
}

// browserSignIn is what answerAs saw: the Basic challenges it answered and
// the confirmation dialogs it accepted.
type browserSignIn struct {
	challenges atomic.Int32
	mu         sync.Mutex
	dialogs    []string
}

func (b *browserSignIn) confirmed() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.dialogs...)
}

// answerAs makes the browser answer every Basic challenge with cred, as an
// operator answers the prompt, and accept every confirmation dialog.
func answerAs(t *testing.T, ctx context.Context, cred aclsign.Credentials) *browserSignIn {
	t.Helper()
	// Subscribed before Fetch is enabled, so no paused request is missed.
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	auths := chromedp.Events(ctx, fetch.AuthRequired)
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	b := &browserSignIn{}
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		}
	}()
	go func() {
		for ev, err := range auths {
			if err != nil {
				return
			}
			b.challenges.Add(1)
			_, _ = chromedp.Call(ctx, fetch.ContinueWithAuth, fetch.ContinueWithAuthParams{RequestID: ev.RequestID,
				AuthChallengeResponse: &fetch.AuthChallengeResponse{Response: fetch.AuthChallengeResponseResponseProvideCredentials,
					Username: cred.AccessKey, Password: cred.SecretKey}})
		}
	}()
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, ev.Message)
			b.mu.Unlock()
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	handleAuth := true
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{HandleAuthRequests: &handleAuth}); err != nil {
		t.Fatalf("enable the auth handling: %v", err)
	}
	return b
}
