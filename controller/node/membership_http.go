package node

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/sirupsen/logrus"
)

// maxPeerRequestBody bounds POST /v1/controller/peers's JSON body.
const maxPeerRequestBody = 4 << 10

// peersHTTP adds the side port's membership endpoints, admin writes:
// POST /v1/controller/peers {"peer":"id-host:port"} (as 5022) and
// DELETE /v1/controller/peers/{id} (as 5023), answered by AddPeerHTTP and
// RemovePeerHTTP (which the NameServer's side port calls too, for an
// embedded controller).
func (n *Node) peersHTTP(mux *http.ServeMux) {
	mux.Handle("POST /v1/controller/peers", n.adminWrite(func(w http.ResponseWriter, r *http.Request) {
		status, answer := n.AddPeerHTTP(r)
		writeHTTPJSON(w, status, answer)
	}))
	mux.Handle("DELETE /v1/controller/peers/{id}", n.adminWrite(func(w http.ResponseWriter, r *http.Request) {
		status, answer := n.RemovePeerHTTP(r, r.PathValue("id"))
		writeHTTPJSON(w, status, answer)
	}))
}

// AddPeerHTTP adds the voter r's JSON body {"peer":"id-host:port"} names
// (r already admitted by an admin guard: this side port's, or the
// NameServer's for an embedded controller) and returns the HTTP status and
// the JSON value to answer: the voters after the change
// (wire.ControllerPeers), 409 naming the leader on a node that does not
// lead, 400 for a refused change or a body that is not the JSON asked.
func (n *Node) AddPeerHTTP(r *http.Request) (int, any) {
	var body struct {
		Peer string `json:"peer"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxPeerRequestBody)).Decode(&body); err != nil {
		return http.StatusBadRequest, httpError(`want {"peer":"id-host:port"}: ` + err.Error())
	}
	res, err := n.addPeer(body.Peer)
	return n.peersHTTPAnswer(r, logrus.Fields{"peer": body.Peer}, res, err)
}

// RemovePeerHTTP removes the voter id (r already admitted by an admin
// guard) and answers as AddPeerHTTP does.
func (n *Node) RemovePeerHTTP(r *http.Request, id string) (int, any) {
	res, err := n.removePeer(id)
	return n.peersHTTPAnswer(r, logrus.Fields{"id": id}, res, err)
}

// peersHTTPAnswer is a membership change's HTTP status and JSON value; the
// warnings and the log of who changed the members name the caller
// (accessKey, remote) and the change (fields).
func (n *Node) peersHTTPAnswer(r *http.Request, fields logrus.Fields, res any, err error) (int, any) {
	user, _, _ := r.BasicAuth()
	fields["accessKey"], fields["remote"] = user, r.RemoteAddr
	switch {
	case errors.Is(err, errNotServing):
		answer := httpError("not the controller leader")
		if leader, ok := n.Leader(); ok {
			answer["leaderId"], answer["leaderAddress"] = leader.ID, leader.Addr
		}
		return http.StatusConflict, answer
	case errors.Is(err, errPeerChange):
		n.refusals.Warn(n.log, fields, err, "controller membership change refused (side port)")
		return http.StatusBadRequest, httpError(err.Error())
	case err != nil:
		n.log.WithFields(fields).WithError(err).Warn("controller membership change failed (side port)")
		return http.StatusInternalServerError, httpError(err.Error())
	}
	n.log.WithFields(fields).Info("controller membership change asked on the side port")
	return http.StatusOK, res
}
