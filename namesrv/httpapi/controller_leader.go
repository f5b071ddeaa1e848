package httpapi

import (
	"net/http"

	"github.com/sirupsen/logrus"
)

// controllerLeader is POST /v1/controller/leader (behind adminWrite): the
// embedded controller moves its group's leadership (to ?target=ID or the
// body's {"targetId": "ID"}) and answers once the new leader serves.
func (s *Server) controllerLeader(_ *Source, user string, w http.ResponseWriter, r *http.Request) {
	c := s.controller.Load()
	if c == nil || c.TransferLeader == nil {
		writeError(w, http.StatusNotFound, noEmbeddedController)
		return
	}
	status, answer := c.TransferLeader(r)
	s.log.WithFields(logrus.Fields{"accessKey": user, "remote": r.RemoteAddr, "status": status}).
		Info("controller leadership transfer asked on the http side port")
	writeJSON(w, status, answer)
}
