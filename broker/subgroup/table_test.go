package subgroup

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func fixedClock() time.Time { return time.UnixMilli(1700000000000) }

func TestNewTableHasJavaPredefinedGroups(t *testing.T) {
	tab := NewTable(nil, fixedClock)
	for _, name := range []string{"TOOLS_CONSUMER", "FILTERSRV_CONSUMER", "SELF_TEST_C_GROUP", "CID_ONS-HTTP-PROXY",
		"CID_ONSAPI_PULL", "CID_ONSAPI_PERMISSION", "CID_ONSAPI_OWNER", "CID_RMQ_SYS_TRANS"} {
		if _, ok := tab.Get(name); !ok {
			t.Errorf("predefined group %s missing", name)
		}
	}
	if c, _ := tab.Get("CID_RMQ_SYS_TRANS"); !c.ConsumeBroadcastEnable {
		t.Error("CID_RMQ_SYS_TRANS is not broadcast")
	}
}

func TestPutDeleteBumpVersionAndPersist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", FileName)
	tab := NewTable(NewFile(path), fixedClock)
	c := NewConfig("G1")
	c.RetryMaxTimes = 3
	if err := tab.Put(c); err != nil {
		t.Fatal(err)
	}
	if v := tab.Wrapper().DataVersion.Counter; v != 1 {
		t.Fatalf("counter after put = %d", v)
	}
	reloaded := NewTable(NewFile(path), fixedClock)
	if err := reloaded.Load(); err != nil {
		t.Fatal(err)
	}
	if got, ok := reloaded.Get("G1"); !ok || got.RetryMaxTimes != 3 {
		t.Fatalf("reloaded G1 = %+v, %v", got, ok)
	}
	if reloaded.Wrapper().DataVersion.Counter != 1 {
		t.Fatal("reloaded version differs")
	}
	deleted, err := tab.Delete("G1")
	if err != nil || !deleted {
		t.Fatalf("delete: %v %v", deleted, err)
	}
	if deleted, _ := tab.Delete("G1"); deleted {
		t.Fatal("second delete reported a deletion")
	}
	if tab.Wrapper().DataVersion.Counter != 2 {
		t.Fatal("a delete of a missing group changed the version")
	}
}

func TestPutRefusesBadInput(t *testing.T) {
	tab := NewTable(nil, fixedClock)
	for _, name := range []string{"", "bad name", strings.Repeat("g", MaxGroupNameLength+1)} {
		if err := tab.Put(NewConfig(name)); !errors.Is(err, ErrInvalidGroup) {
			t.Errorf("Put(%q) = %v", name, err)
		}
	}
	c := NewConfig("G")
	c.Attributes = map[string]string{"+a": "b"}
	if err := tab.Put(c); !errors.Is(err, ErrAttributes) || !strings.Contains(err.Error(), "unsupported key: a") {
		t.Errorf("attribute accepted: %v", err)
	}
	for i := len(tab.Wrapper().Groups); i < MaxGroups; i++ {
		if err := tab.Put(NewConfig(fmt.Sprintf("g%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := tab.Put(NewConfig("one-more")); !errors.Is(err, ErrTooManyGroups) {
		t.Fatalf("group past the bound: %v", err)
	}
	if err := tab.Put(NewConfig("g100")); err != nil {
		t.Fatalf("update at the bound refused: %v", err)
	}
}
