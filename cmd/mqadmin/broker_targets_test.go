package main

import (
	"bytes"
	"errors"
	"testing"
)

func TestAskBrokersNamesTheSetOfAFailedMember(t *testing.T) {
	targets := []brokerTarget{{addr: "a:1", brokerName: "a"}, {addr: "b:1", brokerName: "b"}}
	var errOut bytes.Buffer
	e := &env{errOut: &errOut}
	var asked []string
	err := askBrokers(e, targets, func(t brokerTarget) error {
		asked = append(asked, t.addr)
		if t.addr == "a:1" {
			return errors.New("down")
		}
		return nil
	})
	if exitStatus(err) != exitPartial || len(asked) != 2 || errOut.String() != "broker a:1 (a) failed: down\n" {
		t.Fatalf("err %v, asked %v, errOut %q", err, asked, errOut.String())
	}
	single := errors.New("refused")
	if err := askBrokers(e, []brokerTarget{{addr: "c:1"}}, func(brokerTarget) error { return single }); err != single {
		t.Fatalf("-b: %v, want the broker's own error", err)
	}
}

func TestReadEachJSONHoldsWhatAnswered(t *testing.T) {
	targets := []brokerTarget{{addr: "a:1", brokerName: "a"}, {addr: "b:1", brokerName: "b"}}
	var out, errOut bytes.Buffer
	e := &env{out: &out, errOut: &errOut, json: true}
	fetch := func(failing string) func(t brokerTarget) (string, error) {
		return func(t brokerTarget) (string, error) {
			if t.addr == failing || failing == "all" {
				return "", errors.New("down")
			}
			return "up", nil
		}
	}
	printText := func(brokerTarget, string) { t.Fatal("text printed with -json") }
	if err := readEach(e, targets, fetch("a:1"), printText); exitStatus(err) != exitPartial || out.String() != "{\n  \"b:1\": \"up\"\n}\n" {
		t.Fatalf("one down: %v, out %q", err, out.String())
	}
	out.Reset()
	if err := readEach(e, targets, fetch("all"), printText); exitStatus(err) != exitFailed || out.Len() != 0 {
		t.Fatalf("all down: %v, out %q", err, out.String())
	}
}
