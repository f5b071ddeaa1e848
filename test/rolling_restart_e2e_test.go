package test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// The rolling restart's shape: a pair of NameServers, two broker names, a
// few topics, and the Apache Go client asking for routes and sending while
// each NameServer is restarted in turn.
const (
	rollingTopics = 4
	// rollingRegisterPeriod is Java's registerNameServerPeriod default: the
	// brokers register again only after the whole restart is over, so what a
	// restarted NameServer knows it knows from its peer or not at all.
	rollingRegisterPeriod = 30 * time.Second
	// rollingRoundsDown and rollingRoundsUp are the client rounds (each a
	// route query and a fresh producer's send per topic) run while a
	// NameServer is down and after it is back, before the next step.
	rollingRoundsDown = 3
	rollingRoundsUp   = 12
	// rollingRoundPause paces the rounds: a few hundred sends in all.
	rollingRoundPause = 20 * time.Millisecond
)

// rollingCounts is what the Go client saw during a rolling restart.
type rollingCounts struct {
	rounds             atomic.Int64
	routeQueries       atomic.Int64
	routeNotExist      atomic.Int64 // answered TOPIC_NOT_EXIST
	routeOtherErrors   atomic.Int64 // no answer from either NameServer, or another error code
	sends              atomic.Int64
	sendsFailed        atomic.Int64
	sendsFailedNoRoute atomic.Int64 // of sendsFailed: "route info not found"
	mu                 sync.Mutex
	firstErrors        []string
}

func (c *rollingCounts) note(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.firstErrors) < 5 {
		c.firstErrors = append(c.firstErrors, err.Error())
	}
}

func (c *rollingCounts) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("%d rounds: %d route queries, %d answered TOPIC_NOT_EXIST, %d other route errors; %d sends, %d failed (%d for want of a route); first errors %q",
		c.rounds.Load(), c.routeQueries.Load(), c.routeNotExist.Load(), c.routeOtherErrors.Load(),
		c.sends.Load(), c.sendsFailed.Load(), c.sendsFailedNoRoute.Load(), c.firstErrors)
}

// goClientLoad runs rounds of the Apache Go client against both NameServers
// until stop is closed: per round, one route query per topic through the
// admin client (FetchClusterList asks a NameServer every time, the next of
// the list each time, as the client's producers and consumers do), then a
// producer started for the round sends one message to each topic, so every
// round's sends start from a route query too.
func goClientLoad(t *testing.T, nameServers, topics []string, counts *rollingCounts, stop <-chan struct{}) <-chan struct{} {
	t.Helper()
	rlog.SetLogLevel("fatal") // a NameServer that is down is this test's point, not news
	resolver := primitive.NewPassthroughResolver(nameServers)
	adm, err := admin.NewAdmin(admin.WithResolver(resolver))
	if err != nil {
		t.Fatalf("apache go admin: %v", err)
	}
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer adm.Close()
		for round := 0; ; round++ {
			select {
			case <-stop:
				return
			default:
			}
			for _, topic := range topics {
				counts.routeQueries.Add(1)
				if _, err := adm.FetchClusterList(topic); err != nil {
					if strings.Contains(strings.ToLower(err.Error()), "not exist") {
						counts.routeNotExist.Add(1)
					} else {
						counts.routeOtherErrors.Add(1)
					}
					counts.note(fmt.Errorf("route of %s: %w", topic, err))
				}
			}
			rollingSendRound(round, resolver, topics, counts)
			counts.rounds.Add(1)
			time.Sleep(rollingRoundPause)
		}
	}()
	return finished
}

// rollingSendRound starts a producer of its own (its own client instance, so
// no route is cached from an earlier round), sends one message to each
// topic, and shuts it down.
func rollingSendRound(round int, resolver primitive.NsResolver, topics []string, counts *rollingCounts) {
	p, err := producer.NewDefaultProducer(producer.WithNsResolver(resolver), producer.WithGroupName("gonamesrv-rolling"),
		producer.WithInstanceName("rolling-"+strconv.Itoa(round)), producer.WithSendMsgTimeout(3*time.Second))
	if err == nil {
		err = p.Start()
	}
	if err != nil {
		counts.sends.Add(int64(len(topics)))
		counts.sendsFailed.Add(int64(len(topics)))
		counts.note(fmt.Errorf("producer: %w", err))
		return
	}
	defer func() { _ = p.Shutdown() }()
	for _, topic := range topics {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		res, err := p.SendSync(ctx, primitive.NewMessage(topic, []byte("rolling restart")))
		cancel()
		counts.sends.Add(1)
		if err == nil && res.Status != primitive.SendOK {
			err = fmt.Errorf("send status %d", res.Status)
		}
		if err != nil {
			counts.sendsFailed.Add(1)
			if strings.Contains(err.Error(), "route info not found") {
				counts.sendsFailedNoRoute.Add(1)
			}
			counts.note(fmt.Errorf("send to %s: %w", topic, err))
		}
	}
}

// waitRounds waits until a client load has run n more rounds than it had.
func waitRounds(t *testing.T, rounds func() int64, n int64, what string) {
	t.Helper()
	want := rounds() + n
	eventually(t, 90*time.Second, what, func() error {
		if got := rounds(); got < want {
			return fmt.Errorf("%d rounds of %d", got, want)
		}
		return nil
	})
}

// restartStep is one NameServer restarted one way.
type restartStep struct {
	server string // "a" or "b"
	how    string // "SIGTERM" or "kill -9"
}

// restartFigure is how long a restarted NameServer took, from the moment it
// was started, to answer every topic's route; zero when it did not within
// the rounds the step ran.
type restartFigure struct {
	restartStep
	answeredAll   time.Duration
	atFirstAsk    bool
	notExistFirst int // topics answered TOPIC_NOT_EXIST at the first ask
}

// rollingRestart starts a pair with the given extra NameServer arguments,
// registers two brokers with both, runs the Go client against both and
// restarts a, b, a, b (SIGTERM twice, then kill -9 twice). It returns the
// client's counts and each restart's figure.
func rollingRestart(t *testing.T, extra ...string) (*rollingCounts, []restartFigure, int64) {
	t.Helper()
	pair := startWarmPair(t, extra...)
	nameServers := []string{pair.a.Addr, pair.b.Addr}
	queues := map[string]int32{}
	var topics []string
	for i := range rollingTopics {
		topic := fmt.Sprintf("RollingTopic-%d", i)
		topics = append(topics, topic)
		queues[topic] = 4
	}
	var brokers []*sendingBroker
	for i, name := range []string{"rolling-a", "rolling-b"} {
		b := nstest.Broker{Cluster: "RollingCluster", Name: name, ID: 0, Topics: queues,
			Version: route.DataVersion{Counter: int64(i + 1), Timestamp: time.Now().UnixMilli()}}
		brokers = append(brokers, startSendingBroker(t, b, nameServers, rollingRegisterPeriod))
	}
	for _, topic := range topics {
		for _, addr := range nameServers {
			if _, code, err := routeOf(addr, topic); err != nil || code != remoting.SUCCESS {
				t.Fatalf("route of %s on %s before the restarts: code %d %v", topic, addr, code, err)
			}
		}
	}

	counts := &rollingCounts{}
	stop := make(chan struct{})
	finished := goClientLoad(t, nameServers, topics, counts, stop)
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		<-finished
	}()
	waitRounds(t, counts.rounds.Load, 3, "the Go client runs before the first restart")

	figures := restartInTurn(t, pair, topics, counts.rounds.Load)
	close(stop)
	<-finished
	var received int64
	for _, b := range brokers {
		received += b.received.Load()
	}
	return counts, figures, received
}

// restartInTurn restarts a, b, a, b (SIGTERM twice, then kill -9 twice),
// each while a client load runs, waiting for rollingRoundsDown rounds of it
// while the server is down and rollingRoundsUp after it is back.
func restartInTurn(t *testing.T, pair warmPair, topics []string, rounds func() int64) []restartFigure {
	t.Helper()
	var figures []restartFigure
	servers := map[string]*process{"a": pair.a, "b": pair.b}
	for _, step := range []restartStep{{"a", "SIGTERM"}, {"b", "SIGTERM"}, {"a", "kill -9"}, {"b", "kill -9"}} {
		ns := servers[step.server]
		if step.how == "SIGTERM" {
			ns.Stop()
		} else {
			ns.Kill()
		}
		waitRounds(t, rounds, rollingRoundsDown, "the clients run while "+step.server+" is down")
		started := time.Now()
		ns.start() // returns once it accepts connections
		figures = append(figures, answerEveryTopic(t, step, ns.Addr, topics, started, rounds))
	}
	return figures
}

// answerEveryTopic asks the restarted server for every topic until it
// answers them all, while the clients run rollingRoundsUp rounds; it
// records when that was, counted from the server's start.
func answerEveryTopic(t *testing.T, step restartStep, addr string, topics []string, started time.Time, rounds func() int64) restartFigure {
	t.Helper()
	figure := restartFigure{restartStep: step}
	until := rounds() + rollingRoundsUp
	for ask := 0; ; ask++ {
		missing := 0
		for _, topic := range topics {
			if _, code, err := routeOf(addr, topic); err != nil || code != remoting.SUCCESS {
				missing++
			}
		}
		if ask == 0 {
			figure.notExistFirst = missing
		}
		if missing == 0 && figure.answeredAll == 0 {
			figure.answeredAll = time.Since(started)
			figure.atFirstAsk = ask == 0
		}
		if rounds() >= until {
			return figure
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-t.Context().Done():
			return figure
		}
	}
}

func logRolling(t *testing.T, counts *rollingCounts, figures []restartFigure, received int64) {
	t.Helper()
	for _, f := range figures {
		if f.answeredAll > 0 {
			t.Logf("%s restarted (%s): answered every topic %s after its start (at the first ask: %v)",
				f.server, f.how, f.answeredAll.Round(time.Millisecond), f.atFirstAsk)
		} else {
			t.Logf("%s restarted (%s): %d of %d topics TOPIC_NOT_EXIST at the first ask, not every topic answered while the client ran %d rounds",
				f.server, f.how, f.notExistFirst, rollingTopics, rollingRoundsUp)
		}
	}
	t.Logf("Go client: %s; brokers received %d messages", counts, received)
}

// TestRollingRestartWithTheGoClient restarts each NameServer of a pair in
// turn, SIGTERM then kill -9, before any broker registers again, while the
// Apache Go client asks both for routes and sends through fresh producers.
// With warm start from peers every route query is answered, no send fails
// and each restarted server answers every topic from its first accepted
// connection. The same restart with peerWarmStartTimeoutMillis=0 (the
// NameServer before warm start: it starts empty) is the failure this
// prevents: the client gets TOPIC_NOT_EXIST and sends fail for want of a
// route, as the Go client neither moves on after an error answer nor keeps
// a route it has not yet got.
func TestRollingRestartWithTheGoClient(t *testing.T) {
	t.Run("warm start from peers", func(t *testing.T) {
		counts, figures, received := rollingRestart(t)
		logRolling(t, counts, figures, received)
		if counts.routeNotExist.Load() != 0 || counts.routeOtherErrors.Load() != 0 {
			t.Errorf("route queries not answered: %s", counts)
		}
		if counts.sendsFailed.Load() != 0 {
			t.Errorf("sends failed: %s", counts)
		}
		if ok := counts.sends.Load() - counts.sendsFailed.Load(); received < ok {
			t.Errorf("brokers received %d messages, the client had %d sends accepted", received, ok)
		}
		for _, f := range figures {
			if !f.atFirstAsk {
				t.Errorf("%s restarted (%s) did not answer every topic at the first ask: %d TOPIC_NOT_EXIST", f.server, f.how, f.notExistFirst)
			}
		}
	})
	t.Run("no warm start", func(t *testing.T) {
		counts, figures, received := rollingRestart(t, "-peerWarmStartTimeoutMillis", "0")
		logRolling(t, counts, figures, received)
		if counts.routeNotExist.Load() == 0 {
			t.Errorf("without warm start no route query was answered TOPIC_NOT_EXIST: %s", counts)
		}
		if counts.sendsFailedNoRoute.Load() == 0 {
			t.Errorf("without warm start no send failed for want of a route: %s", counts)
		}
		for _, f := range figures {
			if f.notExistFirst == 0 {
				t.Errorf("%s restarted (%s) without warm start answered every topic at once", f.server, f.how)
			}
		}
	})
}
