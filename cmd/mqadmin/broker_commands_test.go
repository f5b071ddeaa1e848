package main

import "testing"

func TestBrokerCommandsAreInTheTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		read bool
	}{
		{"getBrokerConfig", true}, {"updateBrokerConfig", false}, {"brokerStatus", true},
		{"haStatus", true}, {"exportConfigs", false}, {"getKvConfig", true},
	} {
		cmd, ok := findCommand(tc.name)
		if !ok || cmd.read != tc.read {
			t.Errorf("%s: found %v, -json %v, want -json %v", tc.name, ok, ok && cmd.read, tc.read)
		}
		if _, javaOnly := javaOnlyCommand(tc.name); javaOnly {
			t.Errorf("%s still listed as Java-only", tc.name)
		}
	}
}
