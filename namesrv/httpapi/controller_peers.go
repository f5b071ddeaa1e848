package httpapi

import (
	"net/http"

	"github.com/sirupsen/logrus"
)

// controllerAddPeer is POST /v1/controller/peers (behind adminWrite): the
// embedded controller adds the voter its JSON body {"peer":"id-host:port"}
// names, answered as cmd/controller's side port answers it.
func (s *Server) controllerAddPeer(_ *Source, user string, w http.ResponseWriter, r *http.Request) {
	c := s.controller.Load()
	if c == nil || c.AddPeer == nil {
		writeError(w, http.StatusNotFound, noEmbeddedController)
		return
	}
	status, answer := c.AddPeer(r)
	s.answerMembers(user, r, status, answer, w)
}

// controllerRemovePeer is DELETE /v1/controller/peers/{id} (behind
// adminWrite): the embedded controller removes the voter id.
func (s *Server) controllerRemovePeer(_ *Source, user string, w http.ResponseWriter, r *http.Request) {
	c := s.controller.Load()
	if c == nil || c.RemovePeer == nil {
		writeError(w, http.StatusNotFound, noEmbeddedController)
		return
	}
	status, answer := c.RemovePeer(r, r.PathValue("id"))
	s.answerMembers(user, r, status, answer, w)
}

// answerMembers logs who asked for a membership change and its status,
// and answers it.
func (s *Server) answerMembers(user string, r *http.Request, status int, answer any, w http.ResponseWriter) {
	s.log.WithFields(logrus.Fields{"accessKey": user, "remote": r.RemoteAddr, "method": r.Method, "status": status}).
		Info("controller membership change asked on the http side port")
	writeJSON(w, status, answer)
}
