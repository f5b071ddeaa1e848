package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestBasicPaceAddressesGauge: the side port's guess pacing table is a
// bounded buffer with its own gauge.
func TestBasicPaceAddressesGauge(t *testing.T) {
	src := testSources()
	src.ACL = func() ACLCounts { return ACLCounts{BasicPaceAddresses: 7} }
	m := New(src, nil, time.Now())
	want := `
# HELP rocketmq_namesrv_acl_basic_pace_addresses Source addresses the side port's HTTP Basic guess pacing follows (at most 4096).
# TYPE rocketmq_namesrv_acl_basic_pace_addresses gauge
rocketmq_namesrv_acl_basic_pace_addresses 7
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "rocketmq_namesrv_acl_basic_pace_addresses"); err != nil {
		t.Error(err)
	}
}
