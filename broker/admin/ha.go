package admin

import (
	"encoding/json"

	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// CodeGetBrokerHAStatus is GET_BROKER_HA_STATUS (Java RequestCode 907).
const CodeGetBrokerHAStatus int32 = 907

// HARuntimeInfo is the GET_BROKER_HA_STATUS answer (Java HARuntimeInfo):
// a master's connections to its slaves, or a slave's view of its master.
// Members are in fastjson's order (alphabetical); mqadmin decodes Java's
// answer with it too.
type HARuntimeInfo struct {
	HAClientRuntimeInfo      HAClientRuntimeInfo       `json:"haClientRuntimeInfo"`
	HAConnectionInfo         []HAConnectionRuntimeInfo `json:"haConnectionInfo"`
	InSyncSlaveNums          int32                     `json:"inSyncSlaveNums"`
	Master                   bool                      `json:"master"`
	MasterCommitLogMaxOffset int64                     `json:"masterCommitLogMaxOffset"`
}

// HAConnectionRuntimeInfo is one slave connection of a master.
type HAConnectionRuntimeInfo struct {
	Addr                    string `json:"addr"`
	Diff                    int64  `json:"diff"`
	InSync                  bool   `json:"inSync"`
	SlaveAckOffset          int64  `json:"slaveAckOffset"`
	TransferFromWhere       int64  `json:"transferFromWhere"`
	TransferredByteInSecond int64  `json:"transferredByteInSecond"`
}

// HAClientRuntimeInfo is a slave's replication client. Java leaves
// masterAddr out while it has none (fastjson drops nulls).
type HAClientRuntimeInfo struct {
	LastReadTimestamp       int64  `json:"lastReadTimestamp"`
	LastWriteTimestamp      int64  `json:"lastWriteTimestamp"`
	MasterAddr              string `json:"masterAddr,omitempty"`
	MasterFlushOffset       int64  `json:"masterFlushOffset"`
	MaxOffset               int64  `json:"maxOffset"`
	TransferredByteInSecond int64  `json:"transferredByteInSecond"`
}

// RegisterHAStatus attaches GET_BROKER_HA_STATUS, answered from status.
func RegisterHAStatus(srv portguard.Registrar, status func() HARuntimeInfo) {
	srv.Handle(CodeGetBrokerHAStatus, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return haStatusResponse(req, status())
	})
}

func haStatusResponse(req *remoting.Command, info HARuntimeInfo) *remoting.Command {
	if info.HAConnectionInfo == nil {
		info.HAConnectionInfo = []HAConnectionRuntimeInfo{}
	}
	body, err := json.Marshal(info)
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.Body = body
	return resp
}
