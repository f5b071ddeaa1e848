package replicas

import (
	"context"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"
)

func TestDefaultsAreJavas(t *testing.T) {
	c := DefaultConfig("/data/store/")
	if c.SyncBrokerMetadataPeriod != 5*time.Second || c.CheckSyncStateSetPeriod != 5*time.Second ||
		c.SyncControllerMetadataPeriod != 10*time.Second || c.ControllerHeartBeatTimeout != 10*time.Second ||
		c.BrokerHeartbeatInterval != time.Second || c.BrokerElectionPriority != math.MaxInt32 ||
		c.HaMaxTimeSlaveNotCatchup != 15*time.Second || c.HaMaxGapNotInSync != 256<<20 {
		t.Fatalf("defaults %+v", c)
	}
	if c.StorePathBrokerIdentity != "/data/store/brokerIdentity" {
		t.Fatalf("identity path %q", c.StorePathBrokerIdentity)
	}
	if err := c.Validate(); !errors.Is(err, ErrConfig) {
		t.Fatalf("no controllerAddr validated: %v", err)
	}
	c.ControllerAddr = "127.0.0.1:9878"
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.CheckSyncStateSetPeriod = 0
	if err := c.Validate(); !errors.Is(err, ErrConfig) {
		t.Fatalf("zero period validated: %v", err)
	}
}

func TestControllerAddrsSplitOrResolve(t *testing.T) {
	c := DefaultConfig("")
	c.ControllerAddr = " 127.0.0.1:9878; 127.0.0.1:9879 ;"
	got, err := c.ControllerAddrs(context.Background())
	if err != nil || !reflect.DeepEqual(got, []string{"127.0.0.1:9878", "127.0.0.1:9879"}) {
		t.Fatalf("split %v %v", got, err)
	}
	c.FetchControllerAddrByDNSLookup = true
	c.ControllerAddr = "localhost:9878"
	got, err = c.ControllerAddrs(context.Background())
	if err != nil || len(got) == 0 {
		t.Fatalf("lookup %v %v", got, err)
	}
	for _, a := range got {
		if a != "127.0.0.1:9878" && a != "[::1]:9878" {
			t.Fatalf("lookup gave %v", got)
		}
	}
	c.ControllerAddr = "no-port"
	if _, err := c.ControllerAddrs(context.Background()); err == nil {
		t.Fatal("a name without a port resolved")
	}
}
