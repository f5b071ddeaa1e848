package main

import (
	"errors"
	"fmt"
	"testing"
)

func TestExitStatusTellsPartialFromFailed(t *testing.T) {
	partial := &partialFailure{failed: 1, total: 3, what: "name servers"}
	cases := []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{errors.New("refused"), exitFailed},
		{errUsage, exitFailed},
		{partial, exitPartial},
		{fmt.Errorf("round 2: %w", partial), exitPartial},
	}
	for _, tc := range cases {
		if got := exitStatus(tc.err); got != tc.want {
			t.Errorf("exitStatus(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	if partial.Error() != "1 of 3 name servers failed" {
		t.Errorf("wording: %q", partial.Error())
	}
}

func TestAllFailedIsExitOne(t *testing.T) {
	if got := exitStatus(&allFailed{total: 2, what: "controllers"}); got != exitFailed {
		t.Fatalf("exit %d", got)
	}
}
