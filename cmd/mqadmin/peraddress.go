package main

import (
	"fmt"
	"strings"
)

// askEach is how a command asks several servers: every NameServer of -n,
// every controller of a controller command's -a list, every broker of a set
// or cluster. It runs ask once per address, in order, and never stops at a
// failure, so the servers that answer keep their output (ask prints it on
// e.out, or keeps it for the caller to print after) and a script can tell
// from the exit status what came:
//
//   - nil: every address answered (exit 0);
//   - one address that failed: its error as it is (exit 1, the message as
//     with a single server before);
//   - several, some failed: each failure a line on e.errOut (the error,
//     prefixed with the address unless it names it), and a *partialFailure
//     "N of M <what> failed" (exit 2);
//   - several, all failed: the same lines and an *allFailed (exit 1).
//
// what names the servers in the plural ("name servers", "controllers",
// "brokers"). A command with several steps checks someAnswered after each.
func askEach(e *env, addrs []string, what string, ask func(addr string) error) error {
	failed := 0
	var only error
	for _, addr := range addrs {
		err := ask(addr)
		if err == nil {
			continue
		}
		failed++
		only = err
		if len(addrs) == 1 {
			break
		}
		if text := err.Error(); strings.Contains(text, addr) {
			fmt.Fprintln(e.errOut, text)
		} else {
			fmt.Fprintf(e.errOut, "%s: %s\n", addr, text)
		}
	}
	switch {
	case failed == 0:
		return nil
	case len(addrs) == 1:
		return only
	case failed == len(addrs):
		return &allFailed{total: failed, what: what}
	default:
		return &partialFailure{failed: failed, total: len(addrs), what: what}
	}
}

// someAnswered says whether a step's result from askEach leaves something
// to go on with: every server answered, or some did.
func someAnswered(err error) bool {
	return err == nil || exitStatus(err) == exitPartial
}

// firstFailure is the result of a command of several steps: the first
// step's error that stopped it, else the first partial failure, else nil.
func firstFailure(errs ...error) error {
	var partial error
	for _, err := range errs {
		switch {
		case err == nil:
		case exitStatus(err) != exitPartial:
			return err
		case partial == nil:
			partial = err
		}
	}
	return partial
}
