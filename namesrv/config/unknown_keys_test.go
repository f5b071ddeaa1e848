package config

import (
	"io"
	"testing"
)

// The controller's keys are unknown to a NameServer without the embedded
// controller, and known (not reported) with it; a typo then is suggested
// among both.
func TestUnknownKeysKnowTheControllerKeysWhenEmbedded(t *testing.T) {
	path := writeFile(t, "controllerStorePath=/x\ncontrollerDLegerSelfd=n0\n")
	cfg, _, err := FromArgs([]string{"-c", path}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if u := cfg.UnknownKeys(); len(u) != 2 || u[0].Key != "controllerStorePath" {
		t.Fatalf("without the embedded controller: %+v", u)
	}
	cfg, _, err = FromArgs([]string{"-c", path, "-enableControllerInNamesrv"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if u := cfg.UnknownKeys(); len(u) != 1 || u[0].Key != "controllerDLegerSelfd" || u[0].Closest != "controllerDLegerSelfId" {
		t.Fatalf("with the embedded controller: %+v", u)
	}
}
