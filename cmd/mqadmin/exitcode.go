package main

import (
	"errors"
	"fmt"
)

// The exit statuses of mqadmin, for scripts: 0 when every server asked
// answered, exitFailed when the command failed (bad options, no answer, a
// refusal), exitPartial when some servers answered and others did not (the
// answers are on stdout, the failures on stderr).
const (
	exitOK      = 0
	exitFailed  = 1
	exitPartial = 2
)

// partialFailure is a command's result when some of the servers it asked
// failed: their results are already printed, the failures named on stderr.
type partialFailure struct {
	failed, total int
	what          string // what was asked, e.g. "name servers"
}

func (p *partialFailure) Error() string {
	return fmt.Sprintf("%d of %d %s failed", p.failed, p.total, p.what)
}

// allFailed is a command's result when every one of several servers it
// asked failed (askEach): each failure is named on stderr; exit 1.
type allFailed struct {
	total int
	what  string
}

func (a *allFailed) Error() string {
	return fmt.Sprintf("all %d %s failed", a.total, a.what)
}

// exitStatus is the status a command's error maps to.
func exitStatus(err error) int {
	var partial *partialFailure
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &partial):
		return exitPartial
	default:
		return exitFailed
	}
}
