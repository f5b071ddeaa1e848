package namesrv

import "github.com/sirupsen/logrus"

// drainBroker wipes the write permission of a broker name's queues on this
// NameServer: the one path of WIPE_WRITE_PERM_OF_BROKER and of the side
// port's POST /v1/brokers/{brokerName}/drain. It returns the topics changed.
func (ns *NameServer) drainBroker(brokerName string) int {
	count := ns.routes.WipeWritePerm(brokerName)
	ns.log.WithFields(logrus.Fields{"brokerName": brokerName, "topics": count}).Info("write permission wiped")
	return count
}

// undrainBroker gives a drained broker name its write permission back: the
// one path of ADD_WRITE_PERM_OF_BROKER and of POST .../undrain.
func (ns *NameServer) undrainBroker(brokerName string) int {
	count := ns.routes.AddWritePerm(brokerName)
	ns.log.WithFields(logrus.Fields{"brokerName": brokerName, "topics": count}).Info("write permission added")
	return count
}
