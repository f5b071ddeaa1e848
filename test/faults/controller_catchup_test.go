package faults

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// catchUpBound fails the restarted-follower case: hashicorp's replication
// backoff (10 ms doubled per failed call, up to 10 s) reached seconds
// after a follower had been down for a few; a caught-up transport gets the
// first call through once the follower listens.
const catchUpBound = 2 * time.Second

// TestControllerRestartedFollowerCatchesUpAtOnce: a follower SIGKILLed,
// entries written while it is down, started again after a while: its
// applied index reaches the leader's last index of the restart within
// catchUpBound of its side port answering. Before raftnet's dial waited
// for a peer that refuses, the leader had called the absent follower and
// failed a hundred times and waited out a backoff of 5-10 s after a 12 s
// absence, while a rolling restart's next stop would leave the group
// unable to commit. The short form is one absence of 12 s; FAULTS_FULL
// two of 30 s.
func TestControllerRestartedFollowerCatchesUpAtOnce(t *testing.T) {
	trials, down := 1, 12*time.Second
	if full() {
		trials, down = 2, 30*time.Second
	}
	r := record(t, 96, "controller follower restarted after an absence catches up",
		fmt.Sprintf("3-node cmd/controller group; a follower SIGKILLed, 20 broker ids applied while it is down, started again after %s (%d times); from its side port's first answer until its applied index reaches the leader's last index", down, trials))
	g := newMembersGroup(t)
	all := []int{0, 1, 2}
	for _, i := range all {
		g.start(t, i, false)
	}
	var took []time.Duration
	for trial := range trials {
		leader := g.serving(t, all)
		f := (leader + 1) % 3
		g.procs[f].kill()
		fillSets(t, g.addrs[:3], 20)
		time.Sleep(down)
		target := g.index(leader, "lastIndex")
		g.start(t, f, false)
		if _, up := waitFor(30*time.Second, 5*time.Millisecond, func() bool { _, err := g.status(f); return err == nil }); !up {
			t.Fatalf("n%d's side port did not answer within 30 s of its start", f)
		}
		caughtUp := g.catchUp(t, f, target)
		r.observe(t, "trial %d: n%d down %s, back: caught up to index %d in %s", trial+1, f, down, target, ms(caughtUp))
		took = append(took, caughtUp)
	}
	slices.Sort(took)
	r.figure(t, "restarted follower caught up (from its side port's first answer)", fmt.Sprintf("worst %s over %d restarts after %s down (bound %s)",
		ms(took[len(took)-1]), len(took), down, catchUpBound))
	if worst := took[len(took)-1]; worst > catchUpBound {
		t.Errorf("a follower restarted after %s down took %s to catch up (bound %s)", down, worst, catchUpBound)
	}
}
