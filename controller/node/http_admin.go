package node

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"net/url"

	"github.com/gonamesrv/gonamesrv/namesrv/acl"
)

// The side port's write endpoints follow the NameServer's
// (namesrv/httpapi): refused without aclEnable, an admin account's HTTP
// Basic credentials (user = accessKey, password = secretKey) checked by the
// port's own ACL checker (adminWhiteRemoteAddresses included), and the
// CSRFHeader on every write so that a page of another origin cannot make
// an admin's browser send one.
const (
	// CSRFHeader must be present (any value) on a write request.
	CSRFHeader = "X-Requested-By"
	// httpRealm is the Basic realm the side port asks credentials for.
	httpRealm = "rocketmq-controller"
)

// setACL gives the side port the checker of the broker-facing port
// (Register): the same accounts decide both.
func (n *Node) setACL(checker *acl.Checker) { n.httpACL.Store(checker) }

// adminWrite runs h for an admin write request that passes the guard, and
// answers 401, 403 or 429 itself otherwise.
func (n *Node) adminWrite(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		checker := n.httpACL.Load()
		switch {
		case checker == nil || !checker.Enabled():
			writeHTTPError(w, http.StatusForbidden, "ACL is off: the side port's write endpoints need aclEnable=true and an admin account")
			return
		case r.Header.Get(CSRFHeader) == "":
			writeHTTPError(w, http.StatusForbidden, "missing the "+CSRFHeader+" header (the side port's guard against cross-site requests)")
			return
		case r.Header.Get("Origin") != "" && !sameOrigin(r.Header.Get("Origin"), r):
			writeHTTPError(w, http.StatusForbidden, "cross-origin request refused: Origin "+r.Header.Get("Origin"))
			return
		}
		remote := remoteAddr(r)
		user, pass, ok := r.BasicAuth()
		if !ok {
			checker.NoCredentials(remote, true)
			w.Header().Set("WWW-Authenticate", `Basic realm="`+httpRealm+`"`)
			writeHTTPError(w, http.StatusUnauthorized, "credentials required: HTTP Basic with an admin account's accessKey and secretKey")
			return
		}
		if err := checker.CheckBasic(user, pass, remote, true); err != nil {
			status := http.StatusForbidden
			var denial *acl.Denial
			if errors.As(err, &denial) && denial.Reason == acl.TooManyGuesses {
				w.Header().Set("Retry-After", "1")
				status = http.StatusTooManyRequests
			} else if errors.As(err, &denial) && (denial.Reason == acl.UnknownAccessKey || denial.Reason == acl.SignatureMismatch) {
				w.Header().Set("WWW-Authenticate", `Basic realm="`+httpRealm+`"`)
				status, err = http.StatusUnauthorized, errors.New("unknown accessKey or wrong secretKey")
			}
			writeHTTPError(w, status, err.Error())
			return
		}
		h(w, r)
	})
}

// remoteAddr is the caller's IP; the zero Addr when it cannot be read.
func remoteAddr(r *http.Request) netip.Addr {
	addrPort, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return addrPort.Addr().Unmap()
}

// sameOrigin reports whether a browser's Origin names the host asked.
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}

// writeHTTPJSON answers v as JSON with status.
func writeHTTPJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// httpError is the JSON value of an error answer, as the NameServer's.
func httpError(msg string) map[string]string { return map[string]string{"error": msg} }

// writeHTTPError answers {"error": msg} with status.
func writeHTTPError(w http.ResponseWriter, status int, msg string) {
	writeHTTPJSON(w, status, httpError(msg))
}
