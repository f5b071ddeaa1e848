package node

import (
	"slices"
	"strconv"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"
)

// A follower of hashicorp/raft checks its leader's silence only when a
// timer that it re-arms to a random 1-2 heartbeat timeouts fires, so a dead
// leader is noticed 1 to 3 timeouts after its last heartbeat; and the other
// followers refuse every vote while they still name a leader, until their
// own timers fire. The leader's kill -9 took 1.3-2.8 timeouts to a serving
// leader (docs/controller.md, "Timeouts on busy hosts"). The silence watch
// makes raft look as soon as the leader has been silent for the heartbeat
// timeout: hashicorp wakes a follower's timer at once when its heartbeat
// timeout is shortened (ReloadConfig), so the watch shortens it by a
// millisecond and puts it back. Raft then checks the silence against its own
// timeout and elects as it always does (pre-vote, terms, logs): only when
// the check happens moves, never what it decides.
const (
	// silencePoll is how often the watch reads the leader's last contact.
	silencePoll = 20 * time.Millisecond
	// silenceStaggerDivisor spaces the followers' looks by a tenth of the
	// heartbeat timeout per rank (100 ms with the default 1 s): followers
	// that looked at the same moment would each win their pre-vote and split
	// the real vote (a further 1-2 election timeouts); spaced, the first to
	// look is refused by those still naming the leader, and the next one
	// wins with its vote.
	silenceStaggerDivisor = 10
)

// A follower whose last entry is older than its current term has not got
// the current leader's first entry (every leader commits one as it starts),
// which a quorum holds: a node restarted a moment ago, whose catch-up waits
// out hashicorp's replication backoff. Its log loses every vote. Looking
// after a newer follower, it refuses that one's pre-vote while it still
// names the leader, and the newer one refuses its older log next: both then
// wait hashicorp's election timer, a random 1-2 election timeouts (the
// leader's kill right after another node's restart took 3.6-4.5 s to a new
// master, 2.6-2.8 s otherwise: docs/controller.md, "Failover figures"). So
// a follower with such a stale log looks first, at the timeout, and the
// others one stagger step later than their rank says: by then it names no
// leader and grants the newer log its vote.

// silenceView is what the watch reads and changes of raft (*raft.Raft).
type silenceView interface {
	State() raft.RaftState
	LeaderWithID() (raft.ServerAddress, raft.ServerID)
	LastContact() time.Time
	ReloadableConfig() raft.ReloadableConfig
	ReloadConfig(raft.ReloadableConfig) error
}

// silenceWatch is one node's watch over its leader's silence.
type silenceWatch struct {
	view    silenceView
	timeout time.Duration    // the heartbeat timeout (controllerRaftHeartbeatTimeoutMillis)
	rank    func() int       // this node's place among the members, 0 first
	stale   func() bool      // whether this node's last entry is older than its term
	log     *logrus.Entry    //
	looked  time.Time        // the last contact the watch last looked for
	now     func() time.Time // time.Now; tests set it
	reload  func(rc raft.ReloadableConfig) error
}

func newSilenceWatch(view silenceView, timeout time.Duration, rank func() int, stale func() bool, log *logrus.Entry) *silenceWatch {
	return &silenceWatch{view: view, timeout: timeout, rank: rank, stale: stale, log: log, now: time.Now, reload: view.ReloadConfig}
}

// stagger is how much longer than the heartbeat timeout this node waits:
// nothing with a stale log, else a tenth of the timeout per rank, plus one.
func (w *silenceWatch) stagger() time.Duration {
	if w.stale() {
		return 0
	}
	return time.Duration(w.rank()+1) * (w.timeout / silenceStaggerDivisor)
}

// check makes raft look at its leader's silence when this node follows a
// leader it has not heard for the heartbeat timeout plus its stagger; once
// per silence (per last contact). It says whether it did.
func (w *silenceWatch) check() bool {
	if w.view.State() != raft.Follower {
		return false
	}
	if addr, _ := w.view.LeaderWithID(); addr == "" {
		return false // no leader named: raft's own election timers run
	}
	last := w.view.LastContact()
	silent := w.now().Sub(last)
	if last.IsZero() || last.Equal(w.looked) || silent < w.timeout {
		return false
	}
	stagger := w.stagger() // past the timeout only: the stale check reads raft's stats
	if silent < w.timeout+stagger {
		return false
	}
	w.looked = last
	rc := w.view.ReloadableConfig()
	shorter := rc
	shorter.HeartbeatTimeout = rc.HeartbeatTimeout - time.Millisecond
	if err := w.reload(shorter); err != nil {
		w.log.WithError(err).Warn("leader silent: could not wake raft's heartbeat check")
		return false
	}
	if err := w.reload(rc); err != nil {
		w.log.WithError(err).Error("leader silent: could not restore raft's heartbeat timeout")
	}
	w.log.WithFields(logrus.Fields{"silentMillis": silent.Milliseconds(), "staggerMillis": stagger.Milliseconds()}).
		Info("leader silent for the heartbeat timeout: raft checks it now")
	return true
}

// memberRank is id's place among the members' ids in sorted order (0 when
// it is not one), the order the silence watch staggers followers by.
func memberRank(ids []string, id string) int {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	if i := slices.Index(sorted, id); i > 0 {
		return i
	}
	return 0
}

// watchLeaderSilence runs the silence watch every silencePoll until stop.
func (n *Node) watchLeaderSilence(timeout time.Duration) {
	w := newSilenceWatch(n.raft, timeout, func() int {
		peers := n.peerList()
		ids := make([]string, len(peers))
		for i, p := range peers {
			ids[i] = p.ID
		}
		return memberRank(ids, n.self.ID)
	}, n.staleLog, n.log.WithField("component", "silence"))
	n.every(silencePoll, func() { w.check() })
}

// staleLog says whether this node's last entry is older than its current
// term (raft's stats; false when they do not say).
func (n *Node) staleLog() bool {
	stats := n.raft.Stats()
	lastTerm, err1 := strconv.ParseUint(stats["last_log_term"], 10, 64)
	term, err2 := strconv.ParseUint(stats["term"], 10, 64)
	return err1 == nil && err2 == nil && lastTerm < term
}
