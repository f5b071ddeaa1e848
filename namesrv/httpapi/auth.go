package httpapi

import (
	"errors"
	"net/http"
	"net/netip"

	"github.com/gonamesrv/gonamesrv/namesrv/acl"
)

// Realm is the HTTP Basic realm the side port asks credentials for.
const Realm = "rocketmq-namesrv"

// access is what an endpoint asks of its caller when aclEnable is true.
type access int

const (
	// anyAccount: the Basic credentials of any account.
	anyAccount access = iota
	// adminAccount: the Basic credentials of an admin account, from an
	// address adminWhiteRemoteAddresses allows.
	adminAccount
)

// guarded is attached(h) behind the ACL: with aclEnable the caller must
// present HTTP Basic credentials (user = accessKey, password = secretKey)
// that the checker admits for need. Without ACL it is h as it was.
func (s *Server) guarded(need access, h func(*Source, http.ResponseWriter, *http.Request)) http.Handler {
	return s.attached(func(src *Source, w http.ResponseWriter, r *http.Request) {
		if src.ACL == nil || !src.ACL.Enabled() {
			h(src, w, r)
			return
		}
		if _, ok := authenticate(src.ACL, need, w, r); ok {
			h(src, w, r)
		}
	})
}

// authenticate checks r's Basic credentials for need through the ACL
// checker (constant-time secret comparison, the account's
// whiteRemoteAddress, adminWhiteRemoteAddresses for admins; refusals counted
// and logged as the wire's are). It answers 401 (no or wrong credentials)
// or 403 (not allowed) itself and returns false then; on success it
// returns the accessKey. A peer whose wrong secrets used up its guesses
// (acl.BasicGuessBurst, then one a second) gets 429 with Retry-After.
func authenticate(checker *acl.Checker, need access, w http.ResponseWriter, r *http.Request) (string, bool) {
	remote := peerAddr(r)
	user, pass, ok := r.BasicAuth()
	if !ok {
		checker.NoCredentials(remote, need == adminAccount)
		unauthorized(w, "credentials required: HTTP Basic with an account's accessKey and secretKey")
		return "", false
	}
	err := checker.CheckBasic(user, pass, remote, need == adminAccount)
	if err == nil {
		return user, true
	}
	var denial *acl.Denial
	if errors.As(err, &denial) && denial.Reason == acl.TooManyGuesses {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, err.Error())
		return "", false
	}
	if errors.As(err, &denial) && (denial.Reason == acl.UnknownAccessKey || denial.Reason == acl.SignatureMismatch) {
		unauthorized(w, "unknown accessKey or wrong secretKey")
		return "", false
	}
	writeError(w, http.StatusForbidden, err.Error())
	return "", false
}

// unauthorized answers 401 with the challenge that makes a browser prompt.
func unauthorized(w http.ResponseWriter, msg string) {
	w.Header().Set("WWW-Authenticate", `Basic realm="`+Realm+`"`)
	writeError(w, http.StatusUnauthorized, msg)
}

// peerAddr is the caller's IP; the zero Addr (which no pattern but `*`
// matches) when it cannot be read.
func peerAddr(r *http.Request) netip.Addr {
	addrPort, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}
	}
	return addrPort.Addr().Unmap()
}

// WhoAmI is /v1/whoami: whether ACL is on and who the caller is, so the
// dashboard shows the admin controls to admins only.
type WhoAmI struct {
	ACLEnable bool   `json:"aclEnable"`
	AccessKey string `json:"accessKey,omitempty"`
	Admin     bool   `json:"admin"`
}

// whoami answers /v1/whoami (behind guarded(anyAccount, ...)).
func whoami(src *Source, w http.ResponseWriter, r *http.Request) {
	if src.ACL == nil || !src.ACL.Enabled() {
		writeJSON(w, http.StatusOK, WhoAmI{})
		return
	}
	user, _, _ := r.BasicAuth()
	writeJSON(w, http.StatusOK, WhoAmI{ACLEnable: true, AccessKey: user, Admin: src.ACL.IsAdmin(user)})
}
