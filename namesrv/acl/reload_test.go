package acl

import (
	"os"
	"strings"
	"testing"
)

// A file read empty on two polls in a row (truncated by an editor or a
// redirection and not written again yet, as a writer descheduled under
// load left it in TestReload) keeps the accounts in force, as Java skips a
// file without data; it is logged once and is not a refused file. The next
// content loads as usual.
func TestAnEmptyFileKeepsTheAccountsInForce(t *testing.T) {
	c, logged := newTestChecker(t, testFile, Options{Enabled: true})
	if c.Check(AdminRead, signed(user, nil, nil), nil, local) != nil {
		t.Fatal("the account is not in force at start")
	}
	if err := os.WriteFile(c.opts.File, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		c.reload()
	}
	if err := c.Check(AdminRead, signed(user, nil, nil), nil, local); err != nil {
		t.Fatalf("an empty file took the accounts away: %v", err)
	}
	if c.ReloadFailures() != 0 || c.Reloads() != 1 {
		t.Fatalf("reloads %d, failures %d after an empty file: want 1 and 0", c.Reloads(), c.ReloadFailures())
	}
	if n := strings.Count(logged.String(), "accounts file is empty"); n != 1 {
		t.Fatalf("the empty file was logged %d times: %s", n, logged.String())
	}

	if err := os.WriteFile(c.opts.File, []byte(strings.Replace(testFile, "userSecret1", "userSecret2", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	c.reload()
	c.reload()
	if c.Check(AdminRead, signed(user, nil, nil), nil, local) == nil {
		t.Fatal("the file written after the empty stretch was not loaded")
	}
}
