package main

import (
	"bytes"
	"errors"
	"testing"
)

func TestAskEachGoesOnPastFailuresAndSaysWhatCame(t *testing.T) {
	refuse := func(bad ...string) func(addr string) error {
		return func(addr string) error {
			for _, b := range bad {
				if addr == b {
					return errors.New("refused")
				}
			}
			return nil
		}
	}
	cases := []struct {
		addrs, bad []string
		status     int
		errText    string
		stderr     string
	}{
		{[]string{"a:1", "b:2"}, nil, exitOK, "", ""},
		{[]string{"a:1"}, []string{"a:1"}, exitFailed, "refused", ""},
		{[]string{"a:1", "b:2", "c:3"}, []string{"b:2"}, exitPartial, "1 of 3 name servers failed", "b:2: refused\n"},
		{[]string{"a:1", "b:2"}, []string{"a:1", "b:2"}, exitFailed, "all 2 name servers failed", "a:1: refused\nb:2: refused\n"},
	}
	for _, tc := range cases {
		var stderr bytes.Buffer
		var asked []string
		ask := refuse(tc.bad...)
		err := askEach(&env{errOut: &stderr}, tc.addrs, "name servers", func(addr string) error {
			asked = append(asked, addr)
			return ask(addr)
		})
		if exitStatus(err) != tc.status || (err != nil && err.Error() != tc.errText) || stderr.String() != tc.stderr || len(asked) != len(tc.addrs) {
			t.Errorf("%v failing %v: exit %d (%v), stderr %q, asked %v", tc.addrs, tc.bad, exitStatus(err), err, stderr.String(), asked)
		}
		if someAnswered(err) != (len(tc.bad) < len(tc.addrs)) {
			t.Errorf("%v failing %v: someAnswered %t", tc.addrs, tc.bad, someAnswered(err))
		}
	}
	// An error that names its address is printed as it is.
	var stderr bytes.Buffer
	_ = askEach(&env{errOut: &stderr}, []string{"a:1", "b:2"}, "brokers", func(addr string) error {
		if addr == "a:1" {
			return errors.New("a:1 answered: CODE: 1")
		}
		return nil
	})
	if stderr.String() != "a:1 answered: CODE: 1\n" {
		t.Fatalf("stderr %q", stderr.String())
	}
}

func TestFirstFailureStopsBeforePartial(t *testing.T) {
	partial := &partialFailure{failed: 1, total: 2, what: "brokers"}
	hard := errors.New("hard")
	if firstFailure(nil, partial, hard) != hard || firstFailure(partial, nil) != partial || firstFailure(nil, nil) != nil {
		t.Fatal("firstFailure picks the wrong error")
	}
}
