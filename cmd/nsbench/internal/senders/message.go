package senders

import "github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"

// startCommand is the line the parent writes on the child's stdin when its
// own measured run begins; closing stdin afterwards tells the child to
// close its connections and exit.
const startCommand = "start"

// message is one line the child writes on its stdout: first Ready (its
// connections are open), then the Phase it measured; Error instead of
// either when it failed.
type message struct {
	Ready bool `json:"ready,omitempty"`
	// Nice is the child's CPU niceness, sent with Ready, so the parent can
	// report the priority the senders really ran at.
	Nice  int           `json:"nice,omitempty"`
	Phase *report.Phase `json:"phase,omitempty"`
	Error string        `json:"error,omitempty"`
}
