package controller

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// CleanBrokerData validates CLEAN_BROKER_DATA in Java's order: unless
// isCleanLivingBroker, a request without ids is refused while a master is
// recorded, the ids must parse ("1;2;3") and none may be alive; then the set
// must exist. No ids cleans the whole set.
func (s *State) CleanBrokerData(req *wire.CleanBrokerDataRequest, live Liveness) *Result[struct{}] {
	res := &Result[struct{}]{}
	var ids []int64
	if !req.IsCleanLivingBroker {
		blank := strings.TrimSpace(req.BrokerControllerIdsToClean) == ""
		if ss, ok := s.syncStates[req.BrokerName]; blank && ok && ss.HasMaster {
			return res.fail(CodeInvalidCleanBrokerMetadata, fmt.Sprintf(
				"Broker %s is still alive, clean up failure", req.BrokerName))
		}
		if !blank {
			var err error
			if ids, err = parseIDList(req.BrokerControllerIdsToClean); err != nil {
				return res.fail(CodeInvalidCleanBrokerMetadata, fmt.Sprintf(
					"Please set the option <brokerControllerIdsToClean> according to the format, exception: %s", err))
			}
			for _, id := range ids {
				if live.Alive(req.ClusterName, req.BrokerName, id) {
					return res.fail(CodeInvalidCleanBrokerMetadata, fmt.Sprintf(
						"Broker [%s,  %d] is still alive, clean up failure", req.BrokerName, id))
				}
			}
		}
	}
	if _, _, ok := s.set(req.BrokerName); !ok {
		return res.fail(CodeInvalidCleanBrokerMetadata, fmt.Sprintf(
			"Broker %s is not existed,clean broker data failure.", req.BrokerName))
	}
	res.Events = []Event{CleanBrokerDataEvent{BrokerName: req.BrokerName, BrokerIDSetToClean: ids}}
	return res
}

// parseIDList reads "1;2;3" into sorted, distinct ids as Java does: split
// on ';' dropping trailing empty pieces (String.split), Long.valueOf on each,
// an empty or non-numeric piece an error named as Java's
// NumberFormatException names it.
func parseIDList(s string) ([]int64, error) {
	var ids []int64
	pieces := strings.Split(s, ";")
	for len(pieces) > 0 && pieces[len(pieces)-1] == "" {
		pieces = pieces[:len(pieces)-1]
	}
	for _, piece := range pieces {
		id, err := strconv.ParseInt(piece, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("java.lang.NumberFormatException: For input string: \"%s\"", piece)
		}
		ids = append(ids, id)
	}
	return wire.SortedIDs(ids), nil
}
