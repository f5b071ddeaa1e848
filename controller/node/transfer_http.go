package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// maxTransferBodyBytes bounds the JSON body of POST /v1/controller/leader.
const maxTransferBodyBytes = 4 << 10

// transferLeaderHTTP is POST /v1/controller/leader (behind adminWrite): the
// target is the query's target=ID or the JSON body's {"targetId": "ID"}
// (neither: Raft picks); any node serves it (a follower forwards it to the
// leader). It answers wire.TransferLeaderResponse as JSON once the new
// leader serves.
func (n *Node) transferLeaderHTTP(w http.ResponseWriter, r *http.Request) {
	status, answer := n.TransferLeaderHTTP(r)
	writeHTTPJSON(w, status, answer)
}

// TransferLeaderHTTP runs the transfer r asks for (already admitted by an
// admin guard: this side port's, or the NameServer's for an embedded
// controller) and returns the HTTP status and the JSON value to answer:
// the wire.TransferLeaderResponse, or {"error": "..."}.
func (n *Node) TransferLeaderHTTP(r *http.Request) (int, any) {
	target, err := transferTarget(r)
	if err != nil {
		return http.StatusBadRequest, httpError(err.Error())
	}
	ctx, cancel := context.WithTimeout(r.Context(), TransferTimeout+transferForwardSlack)
	defer cancel()
	res, err := n.TransferLeader(ctx, target)
	if err != nil {
		code, remark := transferRefusal(err)
		return transferStatus(code), httpError(remark)
	}
	user, _, _ := r.BasicAuth()
	n.log.WithFields(logrus.Fields{"accessKey": user, "remote": r.RemoteAddr, "newLeader": res.NewLeaderID}).
		Info("controller leadership transfer asked on the side port")
	return http.StatusOK, res
}

// transferTarget reads the target of a transfer request: ?target=ID, or a
// JSON body {"targetId": "ID"}; both present must agree.
func transferTarget(r *http.Request) (string, error) {
	target := r.URL.Query().Get("target")
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxTransferBodyBytes))
	if err != nil {
		return "", fmt.Errorf("request body: %w (at most %d bytes)", err, maxTransferBodyBytes)
	}
	if len(body) > 0 {
		var req wire.TransferLeaderRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return "", fmt.Errorf("request body: want {\"targetId\": \"ID\"}: %w", err)
		}
		if target != "" && req.TargetID != "" && req.TargetID != target {
			return "", errors.New("the query's target and the body's targetId differ")
		}
		if target == "" {
			target = req.TargetID
		}
	}
	if len(target) > wire.MaxNodeIDBytes {
		return "", fmt.Errorf("target is %d bytes, at most %d", len(target), wire.MaxNodeIDBytes)
	}
	return target, nil
}

// transferStatus is the HTTP status of a refused transfer's code.
func transferStatus(code int32) int {
	switch code {
	case controller.CodeNotLeader:
		return http.StatusServiceUnavailable
	case controller.CodeInvalidRequest:
		return http.StatusBadRequest
	case remoting.SYSTEM_BUSY:
		return http.StatusConflict
	case remoting.NO_PERMISSION:
		return http.StatusForbidden
	}
	return http.StatusInternalServerError
}
