package controller

// EventType numbers the events as Java's EventType ids, the 2-byte prefix of
// each event in a log entry.
type EventType uint16

// Java's six event types (impl/event/EventType.java).
const (
	AlterSyncStateSetEventType   EventType = 1
	ApplyBrokerIDEventType       EventType = 2
	ElectMasterEventType         EventType = 3
	ReadEventType                EventType = 4
	CleanBrokerDataEventType     EventType = 5
	UpdateBrokerAddressEventType EventType = 6
)

// Event is one state change, decided on the leader and replicated as data.
type Event interface {
	Type() EventType
}

// AlterSyncStateSetEvent replaces a set's in-sync set (syncStateSetEpoch+1).
type AlterSyncStateSetEvent struct {
	BrokerName      string  `json:"brokerName"`
	NewSyncStateSet []int64 `json:"newSyncStateSet"`
}

// ApplyBrokerIDEvent adds a controller id to a set, creating the set on its
// first id.
type ApplyBrokerIDEvent struct {
	ClusterName       string `json:"clusterName"`
	BrokerName        string `json:"brokerName"`
	BrokerAddress     string `json:"brokerAddress"`
	RegisterCheckCode string `json:"registerCheckCode"`
	NewBrokerID       int64  `json:"newBrokerId"`
	// Identity is the set's identity when this event creates it (ours;
	// random, drawn by the leader that proposed it, so every node applies
	// the same): see SyncStateInfo.Identity. Ignored for a set that exists;
	// entries written before it have none.
	Identity string `json:"identity,omitempty"`
}

// ElectMasterEvent records an election: a new master (masterEpoch+1, the
// in-sync set becomes {master}, syncStateSetEpoch+1) or, when
// NewMasterElected is false, no master (masterEpoch+1, in-sync set kept).
type ElectMasterEvent struct {
	NewMasterElected  bool   `json:"newMasterElected"`
	BrokerName        string `json:"brokerName"`
	NewMasterBrokerID int64  `json:"newMasterBrokerId"`
}

// ReadEvent changes nothing; Java uses it for reads through the log and never
// writes it, here it is an empty entry a new leader may commit as a barrier.
type ReadEvent struct{}

// CleanBrokerDataEvent removes ids from a set, or the whole set when
// BrokerIDSetToClean is empty.
type CleanBrokerDataEvent struct {
	BrokerName         string  `json:"brokerName"`
	BrokerIDSetToClean []int64 `json:"brokerIdSetToClean"`
}

// UpdateBrokerAddressEvent changes a member's address, keeping its check code.
type UpdateBrokerAddressEvent struct {
	ClusterName   string `json:"clusterName"`
	BrokerName    string `json:"brokerName"`
	BrokerAddress string `json:"brokerAddress"`
	BrokerID      int64  `json:"brokerId"`
}

func (AlterSyncStateSetEvent) Type() EventType   { return AlterSyncStateSetEventType }
func (ApplyBrokerIDEvent) Type() EventType       { return ApplyBrokerIDEventType }
func (ElectMasterEvent) Type() EventType         { return ElectMasterEventType }
func (ReadEvent) Type() EventType                { return ReadEventType }
func (CleanBrokerDataEvent) Type() EventType     { return CleanBrokerDataEventType }
func (UpdateBrokerAddressEvent) Type() EventType { return UpdateBrokerAddressEventType }
