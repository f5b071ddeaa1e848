package node

import (
	"encoding/json"
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// HTTPHandler serves the side port: /healthz (200 while the node runs),
// /readyz (200 once a leader is known, so writes can be answered; 503
// naming the error once the node is down), /metrics
// (rocketmq_controller_*), /v1/controller (Status as JSON) and, for
// admins, POST /v1/controller/leader (transfer_http.go) and POST
// /v1/controller/peers, DELETE /v1/controller/peers/{id}
// (membership_http.go). Every
// answer, errors and 404s included, carries X-Content-Type-Options:
// nosniff, as the NameServer's side port does.
func (n *Node) HTTPHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if err := n.Down(); err != nil {
			http.Error(w, "controller down: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		if _, ok := n.Leader(); !ok {
			http.Error(w, "no controller leader known", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(n.metrics.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /v1/controller", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(n.Status())
	})
	mux.Handle("POST /v1/controller/leader", n.adminWrite(n.transferLeaderHTTP)) // transfer_http.go
	n.peersHTTP(mux)
	return nosniff(mux)
}

// nosniff sets X-Content-Type-Options: nosniff before any handler writes,
// so a browser takes every answer as the Content-Type it names.
func nosniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}
