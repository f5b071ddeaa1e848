package mqversion

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestNameMatchesJavasEnum: ordinals read off Java's MQVersion.Version at
// the places the enum changes its pattern.
func TestNameMatchesJavasEnum(t *testing.T) {
	for ordinal, want := range map[int32]string{
		0: "V3_0_0_SNAPSHOT", 15: "V3_0_0_FINAL", 16: "V3_0_1_SNAPSHOT", 17: "V3_0_1", 45: "V3_0_15",
		46: "V3_1_0_SNAPSHOT", 100: "V3_3_8_SNAPSHOT", 402: "V4_9_5_SNAPSHOT", 479: "V5_3_3",
		480: "V5_3_4_SNAPSHOT", 611: "V5_9_9", 612: Higher, 5000: Higher, -1: "-1",
	} {
		if got := Name(ordinal); got != want {
			t.Errorf("Name(%d) = %q, want %q", ordinal, got, want)
		}
	}
	if Count() != 613 {
		t.Errorf("%d ordinals, Java's enum has 613", Count())
	}
	if got := Name(remoting.CurrentVersion); got != "V5_3_3" {
		t.Errorf("the version this server announces is %q, want V5_3_3", got)
	}
}
