package main

import (
	"bytes"
	"errors"
	"testing"
)

func TestAskEachKeepsGoingAndSaysHowManyFailed(t *testing.T) {
	targets := []brokerTarget{{addr: "a:1", brokerName: "a"}, {addr: "b:1", brokerName: "b"}}
	var errOut bytes.Buffer
	e := &env{errOut: &errOut}
	var asked []string
	err := askEach(e, targets, func(t brokerTarget) error {
		asked = append(asked, t.addr)
		if t.addr == "a:1" {
			return errors.New("down")
		}
		return nil
	})
	var partial *partialFailure
	if !errors.As(err, &partial) || len(asked) != 2 || errOut.String() != "broker a:1 (a) failed: down\n" {
		t.Fatalf("err %v, asked %v, errOut %q", err, asked, errOut.String())
	}
	err = askEach(e, targets, func(brokerTarget) error { return errors.New("down") })
	if err == nil || errors.As(err, &partial) {
		t.Fatalf("every broker failing: %v, want a plain error (exit 1)", err)
	}
	single := errors.New("refused")
	if err := askEach(e, []brokerTarget{{addr: "c:1"}}, func(brokerTarget) error { return single }); err != single {
		t.Fatalf("-b: %v, want the broker's own error", err)
	}
}
