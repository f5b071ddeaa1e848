package httpapi

import (
	"net/http"
	"net/url"

	"github.com/sirupsen/logrus"
)

// CSRFHeader must be present (any non-empty value) on the side port's
// write requests: a page of another origin cannot set it without a CORS
// preflight, which this server never grants, so a browser holding an
// admin's Basic credentials cannot be made to drain a broker by a link or a
// form elsewhere.
const CSRFHeader = "X-Requested-By"

// MaxBrokerNameBytes bounds the broker name of a drain or undrain request.
const MaxBrokerNameBytes = 256

// DrainResult is the answer of POST /v1/brokers/{brokerName}/drain and
// /undrain: the broker name and how many of its topics changed.
type DrainResult struct {
	BrokerName string `json:"brokerName"`
	Action     string `json:"action"`
	Topics     int    `json:"topics"`
}

// drainHandler is POST /v1/brokers/{brokerName}/drain or /undrain: the
// WIPE_WRITE_PERM_OF_BROKER or ADD_WRITE_PERM_OF_BROKER of this NameServer,
// for admins only (adminWrite).
func (s *Server) drainHandler(action string) http.Handler {
	return s.adminWrite(func(src *Source, user string, w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("brokerName")
		if name == "" || len(name) > MaxBrokerNameBytes {
			writeError(w, http.StatusBadRequest, "the broker name must be 1 to 256 bytes")
			return
		}
		change := src.Drain
		if action == "undrain" {
			change = src.Undrain
		}
		if change == nil {
			writeError(w, http.StatusNotImplemented, action+" is not available on this server")
			return
		}
		count := change(name)
		s.log.WithFields(logrus.Fields{"brokerName": name, "action": action, "topics": count,
			"accessKey": user, "remote": r.RemoteAddr}).Info("broker write permission changed from the http side port")
		writeJSON(w, http.StatusOK, DrainResult{BrokerName: name, Action: action, Topics: count})
	})
}

// adminWrite is the guard of every write endpoint: refused without
// aclEnable (a write endpoint open to anyone who reaches the port is
// exactly what ACL is there to stop), without the CSRFHeader, from another
// origin, and to anyone but an admin account; h gets the admin's accessKey.
func (s *Server) adminWrite(h func(src *Source, user string, w http.ResponseWriter, r *http.Request)) http.Handler {
	return s.attached(func(src *Source, w http.ResponseWriter, r *http.Request) {
		if src.ACL == nil || !src.ACL.Enabled() {
			writeError(w, http.StatusForbidden, "ACL is off: the side port's write endpoints need aclEnable=true and an admin account")
			return
		}
		if r.Header.Get(CSRFHeader) == "" {
			writeError(w, http.StatusForbidden, "missing the "+CSRFHeader+" header (the side port's guard against cross-site requests)")
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !sameOrigin(origin, r) {
			writeError(w, http.StatusForbidden, "cross-origin request refused: Origin "+origin)
			return
		}
		if user, ok := authenticate(src.ACL, adminAccount, w, r); ok {
			h(src, user, w, r)
		}
	})
}

// sameOrigin reports whether a browser's Origin header names the host the
// request was sent to.
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}

// postOnly answers 405 to the write endpoints' other methods (the /v1/
// catch-all would say 404).
func postOnly() http.Handler { return methodOnly(http.MethodPost) }

// methodOnly answers 405 naming method to a path's other methods.
func methodOnly(method string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", method)
		writeError(w, http.StatusMethodNotAllowed, r.Method+" "+r.URL.Path+": "+method+" only")
	})
}
