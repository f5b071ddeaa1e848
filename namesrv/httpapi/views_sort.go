package httpapi

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/route"
)

// The dashboard's sortable columns: ?sort=COLUMN&order=desc on /v1/topics
// and /v1/brokers, sorted on the server before paging, so a page is the
// first of the whole list in that order, not a sorted page.

// topicSorts are the columns of /v1/topics.
var topicSorts = map[string]route.TopicSort{
	"": route.TopicByName, "topic": route.TopicByName, "brokers": route.TopicByBrokers,
	"read": route.TopicByRead, "write": route.TopicByWrite,
}

// brokerSorts are the columns of /v1/brokers; ties keep groupOrder.
var brokerSorts = map[string]func(a, b BrokerView) int{
	"":           nil,
	"cluster":    func(a, b BrokerView) int { return route.NaturalCompare(a.Cluster, b.Cluster) },
	"brokerName": func(a, b BrokerView) int { return route.NaturalCompare(a.BrokerName, b.BrokerName) },
	"role":       func(a, b BrokerView) int { return strings.Compare(a.Role, b.Role) },
	"id":         func(a, b BrokerView) int { return cmp.Compare(a.BrokerID, b.BrokerID) },
	"addr":       func(a, b BrokerView) int { return strings.Compare(a.BrokerAddr, b.BrokerAddr) },
	"version":    func(a, b BrokerView) int { return cmp.Compare(a.Version, b.Version) },
	"dataVersion": func(a, b BrokerView) int {
		return cmp.Or(cmp.Compare(a.DataVersion.Timestamp, b.DataVersion.Timestamp), cmp.Compare(a.DataVersion.Counter, b.DataVersion.Counter))
	},
	"heartbeat": func(a, b BrokerView) int { return cmp.Compare(a.SinceLastHeartbeatMillis, b.SinceLastHeartbeatMillis) },
	"write":     func(a, b BrokerView) int { return cmp.Compare(boolRank(a.WritePermWiped), boolRank(b.WritePermWiped)) },
	"topics":    func(a, b BrokerView) int { return cmp.Compare(a.TopicCount, b.TopicCount) },
}

// groupOrder is the default order of /v1/brokers: by cluster, then broker
// name (natural order, broker-2 before broker-10), so a group's members are
// listed together; within a group the master (id 0) first, then the slaves
// by id, a broker whose id is not in its group (-1) last; then address.
// (LiveBrokers' order, cluster then address, could list a slave above its
// master and split a group.)
func groupOrder(a, b BrokerView) int {
	return cmp.Or(route.NaturalCompare(a.Cluster, b.Cluster), route.NaturalCompare(a.BrokerName, b.BrokerName),
		cmp.Compare(idRank(a.BrokerID), idRank(b.BrokerID)), strings.Compare(a.BrokerAddr, b.BrokerAddr))
}

// idRank puts the master first and an unknown id (-1) after every slave.
func idRank(id int64) uint64 { return uint64(id) }

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sortColumn reads ?sort= (one of the names in columns) and ?order= (asc,
// the default, or desc).
func sortColumn[T any](r *http.Request, columns map[string]T) (column T, desc bool, err error) {
	q := r.URL.Query()
	name := q.Get("sort")
	column, ok := columns[name]
	if !ok {
		names := make([]string, 0, len(columns))
		for n := range columns {
			if n != "" {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		return column, false, paramChoiceError{"sort", name, names}
	}
	switch order := q.Get("order"); order {
	case "", "asc":
	case "desc":
		desc = true
	default:
		return column, false, paramChoiceError{"order", order, []string{"asc", "desc"}}
	}
	return column, desc, nil
}

// paramChoiceError is a parameter outside its choices.
type paramChoiceError struct {
	name, value string
	choices     []string
}

func (e paramChoiceError) Error() string {
	return e.name + "=" + e.value + " is not one of " + strings.Join(e.choices, ", ")
}

// sortBrokers sorts views on by (nil leaves them), stably, largest first
// when desc.
func sortBrokers(views []BrokerView, by func(a, b BrokerView) int, desc bool) {
	if by == nil {
		if desc {
			slices.Reverse(views)
		}
		return
	}
	slices.SortStableFunc(views, func(a, b BrokerView) int {
		if desc {
			return by(b, a)
		}
		return by(a, b)
	})
}
