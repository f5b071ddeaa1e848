package config

import (
	"path/filepath"
	"testing"
)

func TestStorePathIsBesideTheNodeStoreUnlessSet(t *testing.T) {
	c := Default()
	c.ControllerStorePath, c.ControllerDLegerSelfID = "/data/ctl", "n2"
	if got, want := c.StorePath(), filepath.Join("/data/ctl", "raft-n2", StoreFileName); got != want {
		t.Fatalf("StorePath %q, want %q", got, want)
	}
	c.ControllerType, c.ControllerDLegerPeers, c.JRaftServerID = "jRaft", "", "10.0.0.1:9880"
	if got := c.NodeStoreDir(); got != filepath.Join("/data/ctl", "raft-10.0.0.1_9880") {
		t.Fatalf("JRaft node store %q", got)
	}
	c.ConfigStorePath = "/etc/ctl/controller.properties"
	if c.StorePath() != c.ConfigStorePath || c.ACLFile() != "/etc/ctl/plain_acl.yml" {
		t.Fatalf("explicit configStorePath: %q, acl %q", c.StorePath(), c.ACLFile())
	}
}
