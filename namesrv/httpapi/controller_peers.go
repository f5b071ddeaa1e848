package httpapi

import (
	"net/http"

	"github.com/sirupsen/logrus"
)

// controllerAddPeer is POST /v1/controller/peers (behind adminWrite): the
// embedded controller adds the voter its JSON body {"peer":"id-host:port"}
// names, answered as cmd/controller's side port answers it.
func (s *Server) controllerAddPeer() adminHandler {
	return s.controllerHook("controller membership change", func(c *Controller) func(*http.Request) (int, any) {
		return c.AddPeer
	})
}

// controllerRemovePeer is DELETE /v1/controller/peers/{id} (behind
// adminWrite): the embedded controller removes the voter id.
func (s *Server) controllerRemovePeer() adminHandler {
	return s.controllerHook("controller membership change", func(c *Controller) func(*http.Request) (int, any) {
		if c.RemovePeer == nil {
			return nil
		}
		return func(r *http.Request) (int, any) { return c.RemovePeer(r, r.PathValue("id")) }
	})
}

// adminHandler is what adminWrite guards.
type adminHandler = func(*Source, string, http.ResponseWriter, *http.Request)

// controllerHook answers an admin request with the embedded controller's
// hook that pick returns (404 when no controller is embedded or the hook
// is nil), logging who asked for what and the status.
func (s *Server) controllerHook(what string, pick func(*Controller) func(*http.Request) (int, any)) adminHandler {
	return func(_ *Source, user string, w http.ResponseWriter, r *http.Request) {
		var hook func(*http.Request) (int, any)
		if c := s.controller.Load(); c != nil {
			hook = pick(c)
		}
		if hook == nil {
			writeError(w, http.StatusNotFound, noEmbeddedController)
			return
		}
		status, answer := hook(r)
		s.log.WithFields(logrus.Fields{"accessKey": user, "remote": r.RemoteAddr, "method": r.Method, "status": status}).
			Info(what + " asked on the http side port")
		writeJSON(w, status, answer)
	}
}
