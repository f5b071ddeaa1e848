package config

import "slices"

// LiveKeys are the settings an UPDATE_NAMESRV_CONFIG applies at once: the
// daemon reads them from Settings.Get on every use. Every other key is stored
// (and persisted) but takes effect at the next start. The Java "live" rows of
// protocol.md 6.1, plus logLevel, which the daemon re-applies when Update
// reports it changed.
var LiveKeys = []string{
	"orderMessageEnable",
	"returnOrderTopicConfigToBroker",
	"supportActingMaster",
	"enableAllTopicList",
	"enableTopicList",
	"notifyMinBrokerIdChanged",
	"needWaitForService",
	"waitSecondsForService",
	"deleteTopicWithBrokerRegistration",
	"logLevel",
}

// IsLive reports whether a change of key takes effect without a restart.
func IsLive(key string) bool {
	return slices.Contains(LiveKeys, key)
}
