package test

import (
	"regexp"
	"testing"
)

// lastEpochEnd is the end of each broker's last printed epoch: its max
// offset at the moment it answered, which a simulated offset moves between
// two runs.
var lastEpochEnd = regexp.MustCompile(`endOffset=\d+\}\n(\n|$)`)

// javaReadsOurEpochCache runs Java 5.3.3's getBrokerEpoch and ours against
// the same brokers (ours in controller mode): the same lines, but the last
// epoch's end (the max offset when asked) and the order of the brokers
// (Java's is a HashSet's).
func javaReadsOurEpochCache(t *testing.T, build, ns, set string) {
	t.Helper()
	args := []string{"getBrokerEpoch", "-n", ns, "-b", set}
	java, code := javaMqadmin(t, build, args...)
	ours := mqadmin(t, args...)
	normal := func(s string) string { return sortedLines(lastEpochEnd.ReplaceAllString(s, "endOffset=NOW}\n$1")) }
	if code != 0 || ours.code != 0 || normal(java) != normal(ours.stdout) || !lastEpochEnd.MatchString(ours.stdout) {
		t.Fatalf("getBrokerEpoch of our brokers: Java (exit %d):\n%s\nours (exit %d):\n%s%s", code, java, ours.code, ours.stdout, ours.stderr)
	}
}
