package node

import (
	"fmt"

	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/controller"
)

// checkEntry says whether this node can take e into its log: hashicorp/raft
// panics on a configuration entry it cannot decode (when it is appended, and
// at every start after) and on a log type it does not know (when it is
// applied), and our FSM cannot apply a command it cannot decode. The log
// guard refuses such entries before they are stored; the store check at
// start refuses a raft.db that holds one.
func checkEntry(e *raft.Log) error {
	switch e.Type {
	case raft.LogCommand:
		if _, err := decodeCommand(e.Data); err != nil {
			return fmt.Errorf("raft log index %d: command: %w", e.Index, err)
		}
	case raft.LogConfiguration:
		if err := decodeConfiguration(e.Data); err != nil {
			return fmt.Errorf("raft log index %d: configuration: %w", e.Index, err)
		}
	case raft.LogNoop, raft.LogBarrier:
	case raft.LogAddPeerDeprecated, raft.LogRemovePeerDeprecated:
		// Protocol version 0's peer entries: this group never writes them.
		return fmt.Errorf("raft log index %d: deprecated peer entry (type %d) refused", e.Index, e.Type)
	default:
		return fmt.Errorf("raft log index %d: unknown log type %d", e.Index, e.Type)
	}
	return nil
}

// decodeCommand decodes a command entry's events without ever panicking.
func decodeCommand(b []byte) (events []controller.Event, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decode panicked: %v", r)
		}
	}()
	return controller.DecodeEntry(b)
}

// decodeConfiguration is raft.DecodeConfiguration (the same msgpack
// decoding), its panic turned into an error.
func decodeConfiguration(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	conf := raft.DecodeConfiguration(b)
	for _, s := range conf.Servers {
		if s.ID == "" || s.Address == "" {
			return fmt.Errorf("server without an id or address: %+v", s)
		}
	}
	return nil
}
