package acl

import (
	"strings"
	"testing"
)

// TestClassesAndReasonsListEveryName: the lists a metric shows its zeros
// from hold every class and reason, each with its own counter name.
func TestClassesAndReasonsListEveryName(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Classes() {
		if name := c.String(); strings.HasPrefix(name, "class(") || seen[name] {
			t.Errorf("class %d named %q", c, name)
		}
		seen[c.String()] = true
	}
	for _, r := range Reasons() {
		if name := r.String(); name == "unknown" || seen[name] {
			t.Errorf("reason %d named %q", r, name)
		}
		seen[r.String()] = true
	}
	// Every reason but unknown_access_key, which counts as signature_mismatch.
	if len(Classes()) != int(numClasses) || len(Reasons()) != int(numReasons)-1 || seen[UnknownAccessKey.String()] {
		t.Errorf("%d classes, %d reasons %v; want %d, %d without unknown_access_key", len(Classes()), len(Reasons()), Reasons(), numClasses, numReasons-1)
	}
	c := &Checker{}
	c.denials.counts[AdminWrite][NotAdmin].Add(3)
	if got := c.Denied(Classes()[AdminWrite], NotAdmin); got != 3 {
		t.Errorf("Denied(admin_write, not_admin) = %d, want 3", got)
	}
}
