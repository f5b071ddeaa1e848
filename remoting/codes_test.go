package remoting

import "testing"

func TestCodeValuesMatchJava(t *testing.T) {
	// Values from Java's RequestCode / ResponseCode (apache/rocketmq 5.3.3).
	cases := []struct {
		name string
		got  int32
		want int32
	}{
		{"REGISTER_BROKER", REGISTER_BROKER, 103},
		{"GET_ROUTEINFO_BY_TOPIC", GET_ROUTEINFO_BY_TOPIC, 105},
		{"GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST", GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST, 313},
		{"NOTIFY_MIN_BROKER_ID_CHANGE", NOTIFY_MIN_BROKER_ID_CHANGE, 905},
		{"UPDATE_AND_CREATE_TOPIC", UPDATE_AND_CREATE_TOPIC, 17},
		{"GET_ALL_TOPIC_CONFIG", GET_ALL_TOPIC_CONFIG, 21},
		{"GET_BROKER_RUNTIME_INFO", GET_BROKER_RUNTIME_INFO, 28},
		{"DELETE_TOPIC_IN_BROKER", DELETE_TOPIC_IN_BROKER, 215},
		{"REQUEST_CODE_NOT_SUPPORTED", REQUEST_CODE_NOT_SUPPORTED, 3},
		{"QUERY_NOT_FOUND", QUERY_NOT_FOUND, 22},
		{"GO_AWAY", GO_AWAY, 1500},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s = %d, want %d", tc.name, tc.got, tc.want)
		}
	}
}

func TestRequestCodeName(t *testing.T) {
	for code, name := range requestCodeNames {
		if got := RequestCodeName(code); got != name {
			t.Errorf("RequestCodeName(%d) = %q, want %q", code, got, name)
		}
	}
	if got := RequestCodeName(99999); got != "99999" {
		t.Errorf("unknown code name = %q", got)
	}
	if got := RequestCodeName(BROKER_HEARTBEAT); got != "BROKER_HEARTBEAT" {
		t.Errorf("RequestCodeName(904) = %q", got)
	}
}
