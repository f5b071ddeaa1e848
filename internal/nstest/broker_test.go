package nstest

import (
	"hash/crc32"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// maskedCRC is the header value Java brokers send: CRC32 with the sign bit cleared.
func maskedCRC(body []byte) string {
	return strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)&0x7FFFFFFF), 10)
}

func TestRegisterRequestCarriesBodyAndItsCRC(t *testing.T) {
	compressed, err := BrokerB.CompressedBody()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		req  *remoting.Command
		body []byte
	}{
		{"json body", BrokerAMaster.RegisterRequest(), BrokerAMaster.Body()},
		{"compressed body", BrokerB.RequestWith(compressed), compressed},
		{"empty body", BrokerASlave.RequestWith(nil), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.req.Code != remoting.REGISTER_BROKER || tc.req.Language != remoting.JAVA {
				t.Fatalf("code %d language %d, want REGISTER_BROKER from JAVA", tc.req.Code, tc.req.Language)
			}
			if string(tc.req.Body) != string(tc.body) {
				t.Fatalf("body %q, want %q", tc.req.Body, tc.body)
			}
			if got, want := tc.req.ExtFields["bodyCrc32"], maskedCRC(tc.body); got != want {
				t.Fatalf("bodyCrc32 %s, want %s", got, want)
			}
		})
	}
}

func TestRegisterRequestHeader(t *testing.T) {
	b := BrokerASlave
	ext := b.RegisterRequest().ExtFields
	want := map[string]string{"brokerName": b.Name, "brokerAddr": b.Addr, "clusterName": b.Cluster,
		"haServerAddr": b.HAAddr, "brokerId": "1", "enableActingMaster": "false", "compressed": "false"}
	for key, value := range want {
		if ext[key] != value {
			t.Errorf("%s = %q, want %q", key, ext[key], value)
		}
	}
	for _, absent := range []string{"heartbeatTimeoutMillis", "__ZONE_NAME"} {
		if value, ok := ext[absent]; ok {
			t.Errorf("%s = %q sent for a zero field", absent, value)
		}
	}
	b.TimeoutMillis, b.Zone = 3000, "zone1"
	ext = b.RegisterRequest().ExtFields
	if ext["heartbeatTimeoutMillis"] != "3000" || ext["__ZONE_NAME"] != "zone1" {
		t.Fatalf("ext %v, want heartbeatTimeoutMillis 3000 and __ZONE_NAME zone1", ext)
	}
}

func TestBodiesDecodeToTheTopicTable(t *testing.T) {
	b := BrokerAMaster
	fromJSON, err := route.DecodeRegisterBrokerBody(b.Body())
	if err != nil {
		t.Fatal(err)
	}
	compressed, err := b.CompressedBody()
	if err != nil {
		t.Fatal(err)
	}
	fromBinary, err := route.DecodeCompressedRegisterBrokerBody(compressed, route.VersionV5_0_0)
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]*route.RegisterBrokerBody{"json": fromJSON, "compressed": fromBinary} {
		table := body.TopicConfigSerializeWrapper.TopicConfigTable
		if len(table) != len(b.Topics) {
			t.Fatalf("%s: %d topics, want %d", name, len(table), len(b.Topics))
		}
		for topic, queues := range b.Topics {
			if tc := table[topic]; tc.ReadQueueNums != queues || tc.WriteQueueNums != queues {
				t.Errorf("%s: %s queues read %d write %d, want %d", name, topic, tc.ReadQueueNums, tc.WriteQueueNums, queues)
			}
		}
		if body.TopicConfigSerializeWrapper.DataVersion != b.Version {
			t.Errorf("%s: data version %+v, want %+v", name, body.TopicConfigSerializeWrapper.DataVersion, b.Version)
		}
	}
}

func TestIdentityNamesTheBroker(t *testing.T) {
	got := BrokerB.Identity()
	want := map[string]string{"brokerName": "broker-b", "brokerAddr": BrokerB.Addr, "clusterName": "DefaultCluster", "brokerId": "0"}
	if !maps.Equal(got, want) {
		t.Fatalf("identity %v, want %v", got, want)
	}
}

func TestTopicNamesOwnTopicFirst(t *testing.T) {
	for _, b := range []Broker{BrokerAMaster, BrokerB} {
		names := b.TopicNames()
		if len(names) != len(b.Topics) || names[0] == SharedTopic || names[len(names)-1] != SharedTopic {
			t.Fatalf("%s topic names %v, want its own topic first and %s last", b.Name, names, SharedTopic)
		}
		if !slices.Equal(slices.Sorted(slices.Values(names)), slices.Sorted(maps.Keys(b.Topics))) {
			t.Fatalf("%s topic names %v, want the keys of %v", b.Name, names, b.Topics)
		}
	}
}
