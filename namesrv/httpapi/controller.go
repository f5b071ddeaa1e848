package httpapi

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Controller is a controller node embedded in the NameServer process
// (enableControllerInNamesrv): the side port serves its status as
// /v1/controller, the same JSON as cmd/controller's side port, and its
// rocketmq_controller_ metrics beside the NameServer's on /metrics.
type Controller struct {
	// Status is the node's status (controller/node.Status).
	Status func() any
	// Metrics is the node's registry; nil adds nothing to /metrics.
	Metrics prometheus.Gatherer
	// Down says why the controller is down (its store refused at start, an
	// entry it cannot apply), nil while it runs; /readyz names it. Nil: up.
	Down func() error
	// TransferLeader answers POST /v1/controller/leader (behind the admin
	// guard): the status and the JSON value
	// (controller/node.Node.TransferLeaderHTTP); nil answers 404.
	TransferLeader func(*http.Request) (int, any)
	// AddPeer and RemovePeer answer POST /v1/controller/peers and DELETE
	// /v1/controller/peers/{id} (behind the admin guard)
	// (controller/node.Node.AddPeerHTTP, RemovePeerHTTP); nil answers 404.
	AddPeer    func(*http.Request) (int, any)
	RemovePeer func(r *http.Request, id string) (int, any)
}

// noEmbeddedController is the 404's text of the controller endpoints when
// no controller is embedded (or the one embedded lacks the endpoint).
const noEmbeddedController = "no controller in this NameServer (enableControllerInNamesrv=false)"

// controllerDown is the attached controller's failure, nil if none.
func (s *Server) controllerDown() error {
	if c := s.controller.Load(); c != nil && c.Down != nil {
		return c.Down()
	}
	return nil
}

// AttachController adds an embedded controller's views; before it,
// /v1/controller answers 404 (the dashboard hides its panel then).
func (s *Server) AttachController(c Controller) {
	s.controller.Store(&c)
}

// controllerView is /v1/controller.
func (s *Server) controllerView(_ *Source, w http.ResponseWriter, _ *http.Request) {
	c := s.controller.Load()
	if c == nil {
		writeError(w, http.StatusNotFound, noEmbeddedController)
		return
	}
	writeJSON(w, http.StatusOK, c.Status())
}

// serveMetrics is /metrics: the NameServer's registry, with the embedded
// controller's when there is one.
func (s *Server) serveMetrics(src *Source, w http.ResponseWriter, r *http.Request) {
	c := s.controller.Load()
	if c == nil || c.Metrics == nil {
		(*s.metrics.Load()).ServeHTTP(w, r)
		return
	}
	gatherers := prometheus.Gatherers{src.Metrics.Registry, c.Metrics}
	promhttp.HandlerFor(gatherers, promhttp.HandlerOpts{ErrorLog: logrusErrorLog(s.log)}).ServeHTTP(w, r)
}
