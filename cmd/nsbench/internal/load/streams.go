package load

import (
	"math/rand/v2"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// RouteStream queries random topics of the layout from pipes, in the Java
// client's layout, and checks every answer against the seeded brokers.
func RouteStream(l *Layout, pipes []*Pipe, inFlight int) Stream {
	return RouteStreamAs(JavaClient, l, pipes, inFlight)
}

// RouteStreamAs is RouteStream with the queries in client's layout; its
// phases are named by RouteOp.
func RouteStreamAs(client Client, l *Layout, pipes []*Pipe, inFlight int) Stream {
	return Stream{Op: RouteOp(client), Pipes: pipes, InFlight: inFlight, Requests: l.routeRequests(client)}
}

// RouteOp is the op route queries in client's layout are reported under:
// "route" for the Java client's, "route-go" and "route-binary" for the
// others.
func RouteOp(client Client) string {
	if client == JavaClient {
		return "route"
	}
	return "route-" + client.String()
}

// routeRequests is a route query per topic in client's layout, built once
// per layout and client.
func (l *Layout) routeRequests(client Client) *RequestSet {
	l.routeMu.Lock()
	defer l.routeMu.Unlock()
	if set := l.routeSets[client]; set != nil {
		return set
	}
	checks := make([]*AnswerCheck, len(l.Clusters))
	for c := range l.Clusters {
		checks[c] = NewAnswerCheck(answeredAs(client, l.ExpectRoute(c)))
	}
	set := &RequestSet{Templates: make([]Template, l.TopicCount()), Checks: make([]*AnswerCheck, l.TopicCount())}
	for i := range l.TopicCount() {
		topic, c := l.Topic(i)
		t, err := routeTemplate(client, topic)
		if err != nil {
			panic(err) // the layouts' topics always encode
		}
		set.Templates[i], set.Checks[i] = t, checks[c]
	}
	if l.routeSets == nil {
		l.routeSets = map[Client]*RequestSet{}
	}
	l.routeSets[client] = set
	return set
}

// RegisterMode says what each re-registration of RegisterStream sends.
type RegisterMode int

// Re-registration modes.
const (
	// RegisterUnchanged repeats the seeded registration: same data version,
	// same body (a broker's periodic re-registration).
	RegisterUnchanged RegisterMode = iota
	// RegisterNewVersion alternates between the seeded body and one with a
	// new data version and the same topic table (Java's JMH brokers).
	RegisterNewVersion
	// RegisterChanged alternates between the seeded body and one with a new
	// data version and a changed topic table: every registration is a real
	// change the server must decode and apply.
	RegisterChanged
)

// Op is the name the phases of the mode are reported under.
func (m RegisterMode) Op() string {
	switch m {
	case RegisterNewVersion:
		return "register-new-version"
	case RegisterChanged:
		return "register-changed"
	default:
		return "register-unchanged"
	}
}

// RegisterStream has every broker re-register on its own connection
// (brokerClients[i] belongs to l.Brokers()[i]), one request at a time, with
// the bodies of mode. pause, when set, is the wait before each registration.
func RegisterStream(regs *Registrations, brokerClients []Invoker, mode RegisterMode, pause func(*rand.Rand) time.Duration) Stream {
	brokers := regs.layout.Brokers()
	other := FirstVersion
	switch mode {
	case RegisterNewVersion:
		other = SecondVersion
	case RegisterChanged:
		other = ChangedTable
	}
	return Stream{
		Op: mode.Op(), Clients: brokerClients, InFlight: 1, Pause: pause,
		NewSource: func(worker int, _ *rand.Rand) Source {
			broker := brokers[worker]
			version := FirstVersion // what Seed registered
			return func() (*remoting.Command, Check) {
				if version == FirstVersion {
					version = other
				} else {
					version = FirstVersion
				}
				return regs.Request(broker, version), ExpectSuccess
			}
		},
	}
}

// HeartbeatStream sends a seeded broker's BROKER_HEARTBEAT, or with
// queryDataVersion its QUERY_DATA_VERSION, for random brokers, from pipes.
func HeartbeatStream(l *Layout, pipes []*Pipe, inFlight int, queryDataVersion bool) Stream {
	brokers := l.Brokers()
	op := "heartbeat"
	if queryDataVersion {
		op = "query-data-version"
	}
	check := NewAnswerCheck(ExpectSuccess)
	set := &RequestSet{Templates: make([]Template, len(brokers)), Checks: make([]*AnswerCheck, len(brokers))}
	for i, broker := range brokers {
		req := HeartbeatRequest(broker)
		if queryDataVersion {
			req = QueryDataVersionRequest(broker, FirstVersion)
		}
		set.Templates[i], set.Checks[i] = MustTemplate(req), check
	}
	return Stream{Op: op, Pipes: pipes, InFlight: inFlight, Requests: set}
}

// UniformPause waits a uniformly random time in [0, limit), the JMH
// brokers' "sleep nextInt(100) ms" between registrations.
func UniformPause(limit time.Duration) func(*rand.Rand) time.Duration {
	return func(rng *rand.Rand) time.Duration { return time.Duration(rng.Int64N(int64(limit))) }
}
