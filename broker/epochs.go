package broker

import "github.com/gonamesrv/gonamesrv/controller/wire"

// epochCache answers GET_BROKER_EPOCH_CACHE (1007) in controller mode: the
// epochs the broker learnt from the controller (replicas.Manager.EpochCache).
// The port opens before the controller flow exists (the flow needs the
// port's address), so until then the answer is the identity alone.
func (b *Broker) epochCache() *wire.EpochEntryCache {
	if m := b.epochFlow.Load(); m != nil {
		return m.EpochCache()
	}
	return &wire.EpochEntryCache{ClusterName: b.cfg.BrokerClusterName, BrokerName: b.cfg.BrokerName}
}
