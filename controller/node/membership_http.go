package node

import (
	"encoding/json"
	"errors"
	"net/http"
)

// maxPeerRequestBody bounds POST /v1/controller/peers's JSON body.
const maxPeerRequestBody = 4 << 10

// peersHTTP adds the side port's membership endpoints, admin writes:
// POST /v1/controller/peers {"peer":"id-host:port"} (as 5022) and
// DELETE /v1/controller/peers/{id} (as 5023). Both answer the voters after
// the change (wire.ControllerPeers), 409 naming the leader on a node that
// does not lead, 400 for a refused change.
func (n *Node) peersHTTP(mux *http.ServeMux) {
	mux.Handle("POST /v1/controller/peers", n.adminWrite(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Peer string `json:"peer"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxPeerRequestBody)).Decode(&body); err != nil {
			writeHTTPError(w, http.StatusBadRequest, `want {"peer":"id-host:port"}: `+err.Error())
			return
		}
		res, err := n.addPeer(body.Peer)
		n.writePeers(w, res, err)
	}))
	mux.Handle("DELETE /v1/controller/peers/{id}", n.adminWrite(func(w http.ResponseWriter, r *http.Request) {
		res, err := n.removePeer(r.PathValue("id"))
		n.writePeers(w, res, err)
	}))
}

// writePeers answers a membership change over HTTP.
func (n *Node) writePeers(w http.ResponseWriter, res any, err error) {
	switch {
	case errors.Is(err, errNotServing):
		answer := map[string]string{"error": "not the controller leader"}
		if leader, ok := n.Leader(); ok {
			answer["leaderId"], answer["leaderAddress"] = leader.ID, leader.Addr
		}
		writeHTTPJSON(w, http.StatusConflict, answer)
	case errors.Is(err, errPeerChange):
		n.refusals.Warn(n.log, nil, err, "controller membership change refused (side port)")
		writeHTTPError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		n.log.WithError(err).Warn("controller membership change failed (side port)")
		writeHTTPError(w, http.StatusInternalServerError, err.Error())
	default:
		writeHTTPJSON(w, http.StatusOK, res)
	}
}
