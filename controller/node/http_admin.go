package node

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"net/url"

	"github.com/gonamesrv/gonamesrv/namesrv/acl"
)

// The side port's write endpoints are guarded as the NameServer's side
// port guards its own (namesrv/httpapi, admin.go and auth.go): refused
// without aclEnable, then an anti-CSRF header, no cross-origin request, and
// HTTP Basic credentials of an admin account (accessKey, secretKey) from an
// address adminWhiteRemoteAddresses allows, checked by the checker of the
// controller port (the same accounts, pacing and refusal counts).

// csrfHeader must be present (any non-empty value) on a write request: a
// page of another origin cannot set it without a CORS preflight, which the
// side port never grants.
const csrfHeader = "X-Requested-By"

// basicRealm is the realm the side port asks credentials for.
const basicRealm = "rocketmq-controller"

// adminHTTP wraps h in the admin check.
func (n *Node) adminHTTP(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		checker := n.adminACL.Load()
		if checker == nil || !checker.Enabled() {
			writeHTTPError(w, http.StatusForbidden, "ACL is off: the side port's write endpoints need aclEnable=true and an admin account (mqadmin on the controller port works without)")
			return
		}
		if r.Header.Get(csrfHeader) == "" {
			writeHTTPError(w, http.StatusForbidden, "missing the "+csrfHeader+" header (the side port's guard against cross-site requests)")
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			if u, err := url.Parse(origin); err != nil || u.Host != r.Host {
				writeHTTPError(w, http.StatusForbidden, "cross-origin request refused: Origin "+origin)
				return
			}
		}
		remote := httpPeerAddr(r)
		user, pass, ok := r.BasicAuth()
		if !ok {
			checker.NoCredentials(remote, true)
			w.Header().Set("WWW-Authenticate", `Basic realm="`+basicRealm+`"`)
			writeHTTPError(w, http.StatusUnauthorized, "credentials required: HTTP Basic with an admin account's accessKey and secretKey")
			return
		}
		if err := checker.CheckBasic(user, pass, remote, true); err != nil {
			var denial *acl.Denial
			switch {
			case errors.As(err, &denial) && denial.Reason == acl.TooManyGuesses:
				w.Header().Set("Retry-After", "1")
				writeHTTPError(w, http.StatusTooManyRequests, err.Error())
			case errors.As(err, &denial) && (denial.Reason == acl.UnknownAccessKey || denial.Reason == acl.SignatureMismatch):
				w.Header().Set("WWW-Authenticate", `Basic realm="`+basicRealm+`"`)
				writeHTTPError(w, http.StatusUnauthorized, "unknown accessKey or wrong secretKey")
			default:
				writeHTTPError(w, http.StatusForbidden, err.Error())
			}
			return
		}
		h(w, r)
	})
}

// httpPeerAddr is the caller's IP; the zero Addr when it cannot be read.
func httpPeerAddr(r *http.Request) netip.Addr {
	addrPort, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return addrPort.Addr().Unmap()
}

// writeHTTPJSON answers v as JSON with status.
func writeHTTPJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeHTTPError answers {"error": msg}.
func writeHTTPError(w http.ResponseWriter, status int, msg string) {
	writeHTTPJSON(w, status, map[string]string{"error": msg})
}
