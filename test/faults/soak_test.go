package faults

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// The soak checker's slack over each promise: a registered broker is in the
// routes of both NameServers within one period, a broker that left
// cleanly is gone at once, a dead one within its timeout and one scan.
const (
	soakSlots      = 6
	soakActionGap  = 1500 * time.Millisecond // mean time between random actions
	soakSlack      = 2 * time.Second
	soakCheckEvery = 250 * time.Millisecond
	soakWarmup     = time.Minute // memory samples before it are not compared
)

// slot states; "changing" while an action runs, when nothing is checked.
const (
	stDown     = "down"     // never started
	stUp       = "up"       // running and registering
	stFrozen   = "frozen"   // SIGSTOP
	stKilled   = "killed"   // kill -9
	stLeft     = "left"     // SIGTERM: unregistered, exited
	stChanging = "changing" // an action is under way
)

type soakSlot struct {
	name    string
	p       *proc
	addr    string
	state   string
	since   time.Time
	topics  map[string]time.Time // extra topics and when they were created
	history []string
}

type soak struct {
	t     *testing.T
	ns    []*proc
	start time.Time

	mu         sync.Mutex
	slots      []*soakSlot
	actions    map[string]int
	answers    map[string]int
	checks     int
	violations []string
}

func (s *soak) logf(slot *soakSlot, format string, args ...any) {
	slot.history = append(slot.history, fmt.Sprintf("%7.1fs %s", time.Since(s.start).Seconds(), fmt.Sprintf(format, args...)))
	if len(slot.history) > 12 {
		slot.history = slot.history[len(slot.history)-12:]
	}
}

// violate records a broken invariant with the slot's recent time line.
func (s *soak) violate(slot *soakSlot, format string, args ...any) {
	line := fmt.Sprintf("%7.1fs %s", time.Since(s.start).Seconds(), fmt.Sprintf(format, args...))
	if slot != nil {
		line += "\n      time line of " + slot.name + ":\n        " + strings.Join(slot.history, "\n        ")
	}
	s.violations = append(s.violations, line)
}

// TestSoak is `make soak DURATION=10m`.
func TestSoak(t *testing.T) {
	raw := os.Getenv("SOAK_DURATION")
	if raw == "" {
		t.Skip("the soak checker runs with make soak DURATION=10m (SOAK_DURATION)")
	}
	duration, err := time.ParseDuration(raw)
	if err != nil {
		t.Fatalf("SOAK_DURATION=%q: %v", raw, err)
	}
	s := &soak{t: t, ns: []*proc{startNamesrv(t, nsOptions{}), startNamesrv(t, nsOptions{})}, start: time.Now(),
		actions: map[string]int{}, answers: map[string]int{}}
	for i := range soakSlots {
		s.slots = append(s.slots, &soakSlot{name: fmt.Sprintf("soak-%d", i), state: stDown, topics: map[string]time.Time{}})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); s.checkLoop(stop) }()
	go func() { defer wg.Done(); s.queryLoop(stop) }()
	var samples [][]int64 // per sample: RSS and fds of each NameServer
	go func() {
		defer wg.Done()
		repeat(stop, 10*time.Second, func() {
			var sample []int64
			for _, ns := range s.ns {
				rss, _ := ns.rssBytes()
				fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", ns.pid()))
				threads, _ := statusField(ns.pid(), "Threads:")
				sample = append(sample, rss, int64(len(fds)), threads>>10)
			}
			s.mu.Lock()
			if time.Since(s.start) > soakWarmup {
				samples = append(samples, sample)
			}
			s.mu.Unlock()
		})
	}()
	for time.Since(s.start) < duration {
		s.act()
		time.Sleep(time.Duration(rand.Int64N(int64(2 * soakActionGap))))
	}
	close(stop)
	wg.Wait()
	s.checkGrowth(samples)
	s.report()
}

// act runs one random action on one random slot.
func (s *soak) act() {
	s.mu.Lock()
	slot := s.slots[rand.IntN(len(s.slots))]
	state, since := slot.state, slot.since
	s.mu.Unlock()
	deadFor := brokerTimeout + scanInterval + soakSlack
	var action string
	switch state {
	case stDown:
		action = "join"
	case stKilled, stLeft:
		if time.Since(since) < deadFor+time.Second {
			return // let its "gone" promise be checked first
		}
		action = "join"
	case stFrozen:
		action = []string{"cont", "kill"}[rand.IntN(2)]
	case stUp:
		if time.Since(since) < registerPeriod+soakSlack {
			return
		}
		action = []string{"topic", "topic", "topic", "leave", "kill", "freeze"}[rand.IntN(6)]
	default:
		return
	}
	s.mu.Lock()
	slot.state = stChanging
	s.actions[action]++
	s.mu.Unlock()
	next := stUp
	switch action {
	case "join":
		p := startBroker(s.t, brokerOptions{name: slot.name, nameServers: s.ns})
		s.mu.Lock()
		slot.p, slot.addr, slot.topics = p, p.Addr, map[string]time.Time{}
		s.mu.Unlock()
	case "topic":
		topic := fmt.Sprintf("%s-t%d", slot.name, rand.IntN(1000))
		resp, err := call(slot.addr, remoting.UPDATE_AND_CREATE_TOPIC, map[string]string{"topic": topic, "defaultTopic": "TBW102",
			"readQueueNums": "4", "writeQueueNums": "4", "perm": "6", "topicFilterType": "SINGLE_TAG", "order": "false"}, nil)
		s.mu.Lock()
		if err != nil || resp.Code != remoting.SUCCESS {
			s.violate(slot, "creating topic %s on the broker failed: %v %v", topic, err, resp)
		} else {
			slot.topics[topic] = time.Now()
		}
		s.mu.Unlock()
		action += " " + topic
	case "leave":
		if !slot.p.stop(10 * time.Second) {
			s.mu.Lock()
			s.violate(slot, "broker did not stop within 10 s of SIGTERM")
			s.mu.Unlock()
		}
		next = stLeft
	case "kill":
		slot.p.kill()
		next = stKilled
	case "freeze":
		slot.p.signal(syscall.SIGSTOP)
		next = stFrozen
	case "cont":
		slot.p.signal(syscall.SIGCONT)
	}
	s.mu.Lock()
	slot.state, slot.since = next, time.Now()
	s.logf(slot, "%s -> %s (%s)", action, next, slot.addr)
	s.mu.Unlock()
}

// checkLoop asserts the route invariants of every slot on both NameServers.
func (s *soak) checkLoop(stop <-chan struct{}) {
	repeat(stop, soakCheckEvery, func() {
		tables := make([]map[string]string, len(s.ns))
		for i, ns := range s.ns {
			brokers, err := brokersOf(ns.Addr)
			if err != nil {
				s.mu.Lock()
				s.violate(nil, "cluster info from NameServer %d: %v", i, err)
				s.mu.Unlock()
				continue
			}
			tables[i] = brokers
		}
		s.mu.Lock()
		s.checks++
		for _, slot := range s.slots {
			age := time.Since(slot.since)
			for i, brokers := range tables {
				if brokers == nil {
					continue
				}
				present := brokers[slot.name] == slot.addr
				switch {
				case slot.state == stUp && age > registerPeriod+soakSlack && !present:
					s.violate(slot, "registered broker %s (%s, up %.1fs) missing from NameServer %d", slot.name, slot.addr, age.Seconds(), i)
				case (slot.state == stKilled || slot.state == stFrozen) && age > brokerTimeout+scanInterval+soakSlack && present:
					s.violate(slot, "dead broker %s (%s, %s %.1fs ago) still routed by NameServer %d", slot.name, slot.addr, slot.state, age.Seconds(), i)
				case slot.state == stLeft && age > soakSlack && present:
					s.violate(slot, "broker %s (%s) that left %.1fs ago still routed by NameServer %d", slot.name, slot.addr, age.Seconds(), i)
				}
			}
		}
		s.mu.Unlock()
	})
}

// queryLoop is the clients: route queries for every slot's topics on both
// NameServers. An answer other than 0 or TOPIC_NOT_EXIST is a violation, and
// so is TOPIC_NOT_EXIST for a topic whose broker is up and settled.
func (s *soak) queryLoop(stop <-chan struct{}) {
	repeat(stop, 20*time.Millisecond, func() {
		s.mu.Lock()
		type query struct {
			slot    *soakSlot
			topic   string
			settled bool
		}
		var queries []query
		for _, slot := range s.slots {
			up := slot.state == stUp && time.Since(slot.since) > registerPeriod+soakSlack
			queries = append(queries, query{slot, slot.name, up})
			for topic, created := range slot.topics {
				queries = append(queries, query{slot, topic, up && time.Since(created) > registerPeriod+soakSlack})
			}
		}
		s.mu.Unlock()
		for _, q := range queries {
			for i, ns := range s.ns {
				_, code, err := routeOf(ns.Addr, q.topic)
				s.mu.Lock()
				key := fmt.Sprint("code ", code)
				if err != nil {
					key = "error"
				}
				s.answers[key]++
				settledNow := q.settled && q.slot.state == stUp
				switch {
				case err != nil || (code != remoting.SUCCESS && code != remoting.TOPIC_NOT_EXIST):
					s.violate(q.slot, "route of %s from NameServer %d: code %d err %v", q.topic, i, code, err)
				case code == remoting.TOPIC_NOT_EXIST && settledNow:
					s.violate(q.slot, "route of %s from NameServer %d: TOPIC_NOT_EXIST while its broker is up", q.topic, i)
				}
				s.mu.Unlock()
			}
		}
	})
}

// checkGrowth compares the NameServers' memory and descriptors in the last
// fifth of the run with the first fifth after the warm-up.
func (s *soak) checkGrowth(samples [][]int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(samples) < 10 {
		s.t.Logf("memory: %d samples after the warm-up, too few to compare (run longer than 3 minutes)", len(samples))
		return
	}
	fifth := len(samples) / 5
	names := []string{"RSS", "fds", "threads"}
	for col := range samples[0] {
		first, last := medianOf(samples[:fifth], col), medianOf(samples[len(samples)-fifth:], col)
		ns, what := col/3, names[col%3]
		s.t.Logf("NameServer %d %s: %d at the start, %d at the end (medians)", ns, what, first, last)
		limit := first + first/2 + 50 // +50% and a little
		if what == "RSS" {
			limit = first + first/2 + 32<<20
		}
		if last > limit {
			s.violate(nil, "NameServer %d %s grew from %d to %d", ns, what, first, last)
		}
	}
}

func medianOf(samples [][]int64, col int) int64 {
	var v []int64
	for _, sample := range samples {
		v = append(v, sample[col])
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// report prints the counts and the violations; any violation fails.
func (s *soak) report() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.t.Logf("soak: %s, %d slots, %d invariant checks", time.Since(s.start).Round(time.Second), len(s.slots), s.checks)
	s.t.Logf("actions: %v", s.actions)
	s.t.Logf("route answers: %v", s.answers)
	s.t.Logf("violations: %d", len(s.violations))
	for _, v := range s.violations {
		s.t.Errorf("violation at %s", v)
	}
}
