package node

import (
	"strings"
	"testing"

	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/controller"
)

func TestCheckEntryRefusesWhatRaftOrTheFSMCannotDecode(t *testing.T) {
	good, err := controller.EncodeEntry([]controller.Event{controller.ReadEvent{}})
	if err != nil {
		t.Fatal(err)
	}
	conf := raft.EncodeConfiguration(raft.Configuration{Servers: []raft.Server{{ID: "n0", Address: "127.0.0.1:1"}}})
	for _, tc := range []struct {
		name string
		e    raft.Log
		want string // "" accepted, else a part of the error
	}{
		{"command", raft.Log{Index: 3, Type: raft.LogCommand, Data: good}, ""},
		{"barrier", raft.Log{Index: 3, Type: raft.LogBarrier}, ""},
		{"noop", raft.Log{Index: 3, Type: raft.LogNoop}, ""},
		{"configuration", raft.Log{Index: 3, Type: raft.LogConfiguration, Data: conf}, ""},
		{"3-byte configuration", raft.Log{Index: 7, Type: raft.LogConfiguration, Data: []byte{1, 2, 3}}, "raft log index 7: configuration"},
		{"configuration without address", raft.Log{Index: 7, Type: raft.LogConfiguration,
			Data: raft.EncodeConfiguration(raft.Configuration{Servers: []raft.Server{{ID: "n0"}}})}, "without an id or address"},
		{"truncated command", raft.Log{Index: 8, Type: raft.LogCommand, Data: good[:4]}, "raft log index 8: command"},
		{"unknown event", raft.Log{Index: 9, Type: raft.LogCommand, Data: []byte{0, 99, 0, 0, 0, 2, '{', '}'}}, "unknown event type 99"},
		{"peer entry", raft.Log{Index: 10, Type: raft.LogAddPeerDeprecated, Data: []byte{1}}, "deprecated peer entry"},
		{"unknown type", raft.Log{Index: 11, Type: raft.LogType(200)}, "unknown log type 200"},
	} {
		err := checkEntry(&tc.e)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}

// BenchmarkCheckEntry is what the guards add to each entry appended: one
// registration's events decoded.
func BenchmarkCheckEntry(b *testing.B) {
	data, err := controller.EncodeEntry([]controller.Event{controller.ApplyBrokerIDEvent{ClusterName: "cluster-a",
		BrokerName: "broker-set-with-a-long-name", BrokerAddress: "10.0.0.1:10911", NewBrokerID: 1,
		RegisterCheckCode: "10.0.0.1:10911;1796639190980"}})
	if err != nil {
		b.Fatal(err)
	}
	e := &raft.Log{Index: 1, Type: raft.LogCommand, Data: data}
	for range b.N {
		if err := checkEntry(e); err != nil {
			b.Fatal(err)
		}
	}
}
