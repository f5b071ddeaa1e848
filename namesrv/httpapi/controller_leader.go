package httpapi

import "net/http"

// controllerLeader is POST /v1/controller/leader (behind adminWrite): the
// embedded controller moves its group's leadership (to ?target=ID or the
// body's {"targetId": "ID"}) and answers once the new leader serves.
func (s *Server) controllerLeader() adminHandler {
	return s.controllerHook("controller leadership transfer", func(c *Controller) func(*http.Request) (int, any) {
		return c.TransferLeader
	})
}
