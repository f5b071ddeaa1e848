package main

import (
	"fmt"
	"io"
)

// printUpdateSummaries prints, after Java's success lines, what each server
// says an update did: the keys changed now and those waiting for a restart
// (our NameServer and controller answer it in the success remark), so that
// an update that changed nothing is seen. A server that says nothing (a
// Java one) is listed as such.
func printUpdateSummaries(w io.Writer, addrs []string, summaries map[string]string) {
	for _, addr := range addrs {
		summary, asked := summaries[addr]
		if !asked {
			continue
		}
		if summary == "" {
			summary = "updated (the server does not say which keys changed)"
		}
		fmt.Fprintf(w, "%s: %s\n", addr, summary)
	}
}
