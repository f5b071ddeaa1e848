package broker

import (
	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/route"
)

// haStatus is what a route-only broker can truly answer to
// GET_BROKER_HA_STATUS (mqadmin haStatus): its role and, as a slave, its
// master's address (the broker address the NameServers or the controller
// gave, where Java names the master's HA port); as a master in controller
// mode, the in-sync slaves of the controller's set. It has no commit log and
// no HA connections, so every offset, speed and time is 0 and a master lists
// no slave connection.
func (b *Broker) haStatus() admin.HARuntimeInfo {
	master := b.cfg.BrokerID == route.MasterID
	masterAddr := b.MasterAddr()
	inSyncSlaves := 0
	if b.replicas != nil {
		role, ok := b.replicas.Role()
		master = ok && role.Master
		masterAddr = role.MasterAddr
		if master {
			inSyncSlaves = max(len(b.replicas.SyncStateSet())-1, 0)
		}
	}
	if master {
		return admin.HARuntimeInfo{Master: true, InSyncSlaveNums: int32(inSyncSlaves)}
	}
	return admin.HARuntimeInfo{HAClientRuntimeInfo: admin.HAClientRuntimeInfo{MasterAddr: masterAddr}}
}
