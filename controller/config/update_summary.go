package config

import "slices"

// restartKeys are the keys changeable online whose new value applies at
// the next start: the period of a loop started with the node.
var restartKeys = []string{"scanInactiveMasterInterval"}

// AppliesAtRestart says whether an UPDATE_CONTROLLER_CONFIG of key takes
// effect only at the node's next start (mqadmin updateControllerConfig
// says so); the other keys changeable online take effect at once.
func AppliesAtRestart(key string) bool { return slices.Contains(restartKeys, key) }
