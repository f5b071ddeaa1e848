package peers

// KVStatus is what the last KV exchange with one peer found (package
// kvsync); the peers panel shows it beside the route check.
type KVStatus struct {
	// Agree says the two stores' digests were equal once this exchange had
	// pulled what was newer there; Error says why the exchange failed.
	Agree bool   `json:"agree"`
	Error string `json:"error,omitempty"`
	// Keys is the peer's keys, tombstones included; Pulled how many entries
	// this exchange took from it, NewerHere how many it has older or lacks
	// (it pulls them in its own exchange).
	Keys      int `json:"keys"`
	Pulled    int `json:"pulled"`
	NewerHere int `json:"newerHere"`
	// Exchanges counts the exchanges done with it since this server started.
	Exchanges     uint64 `json:"exchanges"`
	CheckedMillis int64  `json:"checkedMillis"`
}
