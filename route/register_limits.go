package route

import (
	"errors"
	"fmt"
	"math"
)

// Bounds on what one registration may carry. Java checks none of them; each
// is far above what a real broker sends, and each keeps a peer from making
// the tables (and every answer built from them) grow without end.
const (
	// MaxTopicNameLength is Java's TopicValidator limit (127 characters,
	// counted here in bytes, which is stricter only for non-ASCII names Java
	// would refuse anyway).
	MaxTopicNameLength = 127
	// MaxNameLength bounds broker, cluster and zone names.
	MaxNameLength = 255
	// MaxAddrLength bounds brokerAddr, haServerAddr and filter-server
	// addresses (a 253-character host name and a port fit).
	MaxAddrLength = 255
	// MaxTopicsPerRegistration bounds the topic table, the static-topic
	// mappings and the filter servers of one registration body (a large
	// Java broker has tens of thousands of topics).
	MaxTopicsPerRegistration = 100_000
	// MaxStateVersion bounds DataVersion.stateVersion: Java brokers put
	// their controller master epoch there, a Java int.
	MaxStateVersion = math.MaxInt32
)

var (
	// ErrLimitExceeded refuses a registration past one of the bounds
	// above; nothing is changed.
	ErrLimitExceeded = errors.New("route: limit exceeded")
	// ErrRegisterIgnored reports a registration that changed nothing because
	// another live broker holds its id (see checkTakeover); the daemon
	// answers code 1 with the reason instead of Java's silent code 0.
	ErrRegisterIgnored = errors.New("route: registration ignored")
)

// checkBounds refuses a request whose names, addresses, versions or body
// exceed the bounds, before anything changes.
func (req *RegisterBrokerRequest) checkBounds(dv DataVersion) error {
	if err := CheckBrokerIdentity(req.ClusterName, req.BrokerName, req.BrokerAddr); err != nil {
		return err
	}
	if err := checkLength("__ZONE_NAME", req.ZoneName, MaxNameLength); err != nil {
		return err
	}
	if err := checkLength("haServerAddr", req.HAServerAddr, MaxAddrLength); err != nil {
		return err
	}
	if dv.StateVersion < 0 || dv.StateVersion > MaxStateVersion {
		return fmt.Errorf("%w: stateVersion %d outside [0, %d]", ErrLimitExceeded, dv.StateVersion, MaxStateVersion)
	}
	if req.Body == nil {
		return nil
	}
	return CheckRegisterBrokerBody(req.Body)
}

// CheckBrokerIdentity refuses a cluster name, broker name or broker address
// past its bound: no registration can have stored it, so an unregistration
// naming it is refused before it is queued.
func CheckBrokerIdentity(cluster, brokerName, brokerAddr string) error {
	if err := checkLength("clusterName", cluster, MaxNameLength); err != nil {
		return err
	}
	if err := checkLength("brokerName", brokerName, MaxNameLength); err != nil {
		return err
	}
	return checkLength("brokerAddr", brokerAddr, MaxAddrLength)
}

func checkLength(field, value string, limit int) error {
	if len(value) > limit {
		return fmt.Errorf("%w: %s is %d bytes long, at most %d", ErrLimitExceeded, field, len(value), limit)
	}
	return nil
}

// CheckRegisterBrokerBody checks a decoded registration body against the
// bounds: topic count and name lengths, mapping count, filter servers.
func CheckRegisterBrokerBody(body *RegisterBrokerBody) error {
	w := &body.TopicConfigSerializeWrapper
	if err := checkCount("topics", len(w.TopicConfigTable)); err != nil {
		return err
	}
	for key, tc := range w.TopicConfigTable {
		if err := CheckTopicName(key); err != nil {
			return err
		}
		if err := CheckTopicName(tc.TopicName); err != nil {
			return err
		}
	}
	if err := checkCount("static-topic mappings", len(w.TopicQueueMappingInfoMap)); err != nil {
		return err
	}
	for topic, info := range w.TopicQueueMappingInfoMap {
		if err := CheckTopicName(topic); err != nil {
			return err
		}
		if err := checkLength("mapping bname", info.Bname, MaxNameLength); err != nil {
			return err
		}
	}
	if err := checkCount("filter servers", len(body.FilterServerList)); err != nil {
		return err
	}
	for _, addr := range body.FilterServerList {
		if err := checkLength("filter server address", addr, MaxAddrLength); err != nil {
			return err
		}
	}
	return nil
}

// CheckTopicName refuses a topic name longer than MaxTopicNameLength.
func CheckTopicName(topic string) error {
	return checkLength("topic name", topic, MaxTopicNameLength)
}

func checkCount(what string, n int) error {
	if n > MaxTopicsPerRegistration {
		return fmt.Errorf("%w: %d %s, at most %d", ErrLimitExceeded, n, what, MaxTopicsPerRegistration)
	}
	return nil
}

// checkTakeover refuses a registration that claims a broker id another
// address holds while that holder is live (in the table and within its
// timeout), unless the claimant is itself a member of the group (a slave
// promoted to master, Java's testMasterChangeFromSlave). Java lets anyone
// take the id over, so whoever can reach the port could point a group's
// master at an address of their choosing with one registration, and with a
// huge stateVersion keep the real master out. Here a stranger waits until
// the holder leaves (unregisters, its connection closes, or it expires); a
// master that really moved registers at its new address once the old one
// is gone. A holder with a newer stateVersion is Java's step 7, which
// register keeps (and reports). With aclEnable, broker control is
// authenticated as well; this rule holds without it.
func checkTakeover(s *snapshot, r *registration) error {
	req := r.req
	group, ok := s.groups.get(req.BrokerName)
	if !ok {
		return nil
	}
	oldAddr, ok := group.data.BrokerAddrs[req.BrokerID]
	if !ok || oldAddr == req.BrokerAddr {
		return nil
	}
	for _, addr := range group.data.BrokerAddrs {
		if addr == req.BrokerAddr {
			return nil // a member moving to another id
		}
	}
	holder, live := s.live.get(brokerAddrInfo{cluster: req.ClusterName, addr: oldAddr})
	if !live || holder.deadlineMillis() < r.nowMilli || holder.dataVersion.StateVersion > r.dv.StateVersion {
		return nil
	}
	return fmt.Errorf("%w: broker id %d of %s is held by live broker %s", ErrRegisterIgnored, req.BrokerID, req.BrokerName, oldAddr)
}

// ErrConnectionGone refuses a registration whose connection closed before it
// was applied (RegisterBrokerRequest.ConnOpen).
var ErrConnectionGone = errors.New("route: the registration's connection has closed")

// truncateForLog shortens a peer-given string for an error or log line.
func truncateForLog(s string) string {
	if len(s) <= MaxAddrLength {
		return s
	}
	return s[:MaxAddrLength] + fmt.Sprintf("...(%d bytes)", len(s))
}
