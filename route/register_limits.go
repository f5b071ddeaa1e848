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
	// ErrRegisterIgnored reports a registration that changed nothing (a
	// stale stateVersion, ErrStaleStateVersion, or one superseded by a later
	// unregister, ErrRegisterSuperseded).
	ErrRegisterIgnored = errors.New("route: registration ignored")
	// ErrStaleStateVersion is protocol.md 4.3 step 7: another live address
	// holds the broker id with a greater stateVersion, so the registration
	// is ignored and its own live entry dropped. The daemon answers it as
	// Java does, code 0 without masterAddr, and logs and counts it.
	ErrStaleStateVersion = fmt.Errorf("%w: stateVersion older than the broker id's live holder", ErrRegisterIgnored)
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

// CheckNameField refuses a broker or cluster name past MaxNameLength, the
// error naming field: for requests that spell their fields otherwise (the
// controller's, controller/node) yet must be bounded as a registration is.
func CheckNameField(field, value string) error { return checkLength(field, value, MaxNameLength) }

// CheckAddrField refuses an address past MaxAddrLength, the error naming
// field (the controller's brokerAddress, a registerCheckCode's address).
func CheckAddrField(field, value string) error { return checkLength(field, value, MaxAddrLength) }

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
