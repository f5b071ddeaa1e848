package main

import (
	"testing"
)

func TestSubGroupConfigFromOptionsIsJavas(t *testing.T) {
	cmd, _ := findCommand("updateSubGroup")
	parsed, err := parseArgs([]string{"-g", "G", "-s", "FALSE", "-d", "yes", "-q", "2", "-i", "1",
		"-p", `{"type":"EXPONENTIAL","exponentialRetryPolicy":{"initial":5000,"max":7200000,"multiplier":2}}`, "-c", "C"}, cmd.allOptions())
	if err != nil {
		t.Fatal(err)
	}
	c, err := subGroupConfigFromOptions(&env{args: parsed})
	if err != nil {
		t.Fatal(err)
	}
	// Java's Boolean.parseBoolean: "yes" is false; broadcast and from-min
	// start false in the tool.
	if c.ConsumeEnable || c.ConsumeBroadcastEnable || c.ConsumeFromMinEnable || c.RetryQueueNums != 2 || c.BrokerID != 1 ||
		c.GroupRetryPolicy.Type != "EXPONENTIAL" || c.GroupRetryPolicy.ExponentialRetryPolicy.Max != 7200000 {
		t.Fatalf("config %+v", c)
	}
	for _, bad := range [][]string{{"-g", "G", "-q", "x"}, {"-g", "G", "-w", "x"}, {"-g", "G", "-p", "{"}, {"-g", "G", "--attributes", "a"}} {
		parsed, err := parseArgs(bad, cmd.allOptions())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := subGroupConfigFromOptions(&env{args: parsed}); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestJavaParseBoolean(t *testing.T) {
	for s, want := range map[string]bool{"true": true, "TRUE": true, "yes": false, "1": false, "": false} {
		if javaParseBoolean(s) != want {
			t.Errorf("%q", s)
		}
	}
}
