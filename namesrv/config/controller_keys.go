package config

import ctlconfig "github.com/gonamesrv/gonamesrv/controller/config"

// controllerKey says whether key belongs to the embedded controller: a
// controller setting the NameServer does not have itself (controllerStorePath,
// controllerDLegerPeers, ...), or enableControllerInNamesrv. The embedded
// controller reads them from the NameServer's -c file at start, and an
// UPDATE_NAMESRV_CONFIG rewrites that file's entry of a key it does not know
// (settings.go): the controller's store or membership would move at the next
// start. So they are protected, changed in the -c file only; the
// controller's own UPDATE_CONTROLLER_CONFIG (1009) changes what may change
// online (controller/config/online.go). Keys both have (logLevel,
// configStorePath, ...) keep the NameServer's rules.
func controllerKey(key string) bool {
	if key == "enableControllerInNamesrv" {
		return true
	}
	_, own := fields.Lookup(key)
	return !own && ctlconfig.Known(key)
}
