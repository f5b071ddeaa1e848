package controller

import (
	"encoding/json"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// decodeReplicas reads a 1006 body back (its keys are all quoted, so
// encoding/json can).
func decodeReplicas(t *testing.T, b []byte) map[string]wire.ReplicasInfo {
	t.Helper()
	var body struct {
		ReplicasInfoTable map[string]wire.ReplicasInfo `json:"replicasInfoTable"`
	}
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("1006 body %s: %v", b, err)
	}
	return body.ReplicasInfoTable
}
