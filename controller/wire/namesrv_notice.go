package wire

// CodeNotifyNamesrvMasterElected is ours, not Java's: a standalone
// controller's leader tells the NameServers of its namesrvAddr key of each
// election, so their routes follow it at once (docs/controller.md). Java's
// RequestCode has no 5001; a Java NameServer answers it
// REQUEST_CODE_NOT_SUPPORTED (3), which the sender takes as "this NameServer
// waits for the master's registration, as Java's do".
const CodeNotifyNamesrvMasterElected int32 = 5001

// NotifyNamesrvMasterElectedRequest is that notice's header: the set, its
// elected master ("" when the election found none), the masterEpoch the
// master registers with as stateVersion, and the identity of the set's
// record in the controller's store (absent from controllers without
// identities, and for sets created before them): a new one tells the
// NameServer the record was created again and its epochs restarted.
type NotifyNamesrvMasterElectedRequest struct {
	ClusterName    string `rmq:"clusterName,required"`
	BrokerName     string `rmq:"brokerName,required"`
	MasterAddress  string `rmq:"masterAddress"`
	MasterBrokerID int64  `rmq:"masterBrokerId"`
	MasterEpoch    int32  `rmq:"masterEpoch,required"`
	Identity       string `rmq:"identity,omitempty"`
}
