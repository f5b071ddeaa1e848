package main

import "testing"

func TestGetKvConfigOptions(t *testing.T) {
	cmd, ok := findCommand("getkvconfig")
	if !ok || !cmd.read {
		t.Fatalf("getKvConfig not found or without -json: %+v", cmd)
	}
	if _, err := parseArgs([]string{"-k", "x"}, cmd.allOptions()); err == nil {
		t.Fatal("-s is required")
	}
	if _, err := parseArgs([]string{"-s", "NS"}, cmd.allOptions()); err != nil {
		t.Fatalf("-k is optional: %v", err)
	}
}
