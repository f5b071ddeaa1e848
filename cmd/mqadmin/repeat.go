package main

import (
	"fmt"
	"strconv"
	"time"
)

// defaultInterval is Java's period for an -i given without a value
// (getSyncStateSet, getBrokerEpoch).
const defaultInterval = 3 * time.Second

// repeatEvery runs once, and with -i again every -i seconds until it fails
// or the process is stopped, as Java's getSyncStateSet and getBrokerEpoch
// do (an empty -i is 3 s; one that is not a number fails, as Java's
// Integer.parseInt). A round where some servers did not answer goes on
// (they were named on errOut and may answer the next), as clusterList -i.
func repeatEvery(e *env, once func() error) error {
	if !e.args.has("i") {
		return once()
	}
	interval := defaultInterval
	if v := e.args.get("i"); v != "" {
		seconds, err := strconv.Atoi(v)
		if err != nil || seconds <= 0 {
			return fmt.Errorf("option -i: %q is not a positive number of seconds", v)
		}
		interval = time.Duration(seconds) * time.Second
	}
	for {
		if err := once(); !someAnswered(err) {
			return err
		}
		time.Sleep(interval)
	}
}
