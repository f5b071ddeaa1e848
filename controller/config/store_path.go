package config

import (
	"os"
	"path/filepath"
	"strings"
)

// Where a node keeps its settings. Java's default configStorePath,
// ~/controller/controller.properties, is one file for every controller of
// a user: an update sent to one group was read back at the start of
// another, and a restarted node picked up another node's update. Unless
// configStorePath is set, the file is the node's own, beside its Raft
// store: controllerStorePath/raft-<selfId>/controller.properties.

// StoreFileName is the stored settings file's name in the node's store.
const StoreFileName = "controller.properties"

// NodeStoreDir is where a node keeps its Raft log, snapshots and (by
// default) its settings: controllerStorePath/raft-<selfId>, so nodes
// sharing a path do not collide (with the JRaft keys the id is the Raft
// address, its ':' made '_').
func (c *Config) NodeStoreDir() string {
	return filepath.Join(c.ControllerStorePath, "raft-"+strings.ReplaceAll(c.SelfID(), ":", "_"))
}

// StorePath is the file UPDATE_CONTROLLER_CONFIG writes and the start reads
// back: configStorePath when set, else StoreFileName in NodeStoreDir.
func (c *Config) StorePath() string {
	if c.ConfigStorePath != "" {
		return c.ConfigStorePath
	}
	return filepath.Join(c.NodeStoreDir(), StoreFileName)
}

// resolveStorePath fills an unset configStorePath with the node's own file
// once the keys that place it (controllerStorePath, the self id) are read,
// so that -p and GET_CONTROLLER_CONFIG show the path in use.
func (c *Config) resolveStorePath() {
	if c.ConfigStorePath == "" {
		c.ConfigStorePath = c.StorePath()
		c.storePathDefaulted = true
	}
}

// defaultACLDir is where plain_acl.yml is looked for when neither aclFile
// nor configStorePath is set: ~/controller, Java's configStorePath folder,
// not the node's store (its contents are the group's data, wiped with it).
func defaultACLDir() string {
	home, _ := os.UserHomeDir()
	return filepath.Join(home, "controller")
}
