package namesrv

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/crcfast"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// decodeFailedRemark starts the remark of an undecodable registration body, as
// the Java server words it, so operators searching for it find both.
const decodeFailedRemark = "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode RegisterBrokerBody"

// registerBroker applies a broker's registration (REGISTER_BROKER, 103),
// following protocol.md 2.4. It runs on the worker pool: the body can hold
// tens of thousands of topics. quickRegisterBroker answers the unchanged
// ones on the event loop first.
func (ns *NameServer) registerBroker(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	// Nothing below keeps the body (decoded strings are copies), so its
	// buffer can take the broker's next registration.
	defer req.ReleaseBody()
	outcome := registrationOutcome{started: time.Now(), bodyBytes: len(req.Body)}
	defer ns.observeRegistration(&outcome)
	var h registerBrokerRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return withExt(systemError(req, err.Error()), &registerBrokerResponseHeader{})
	}
	sums := sumRegistrationBody(req, h.Compressed, len(req.Body))
	sums.kind = &outcome.kind
	if !sums.crcMatches(&h) {
		ns.warn(logrus.Fields{"brokerAddr": truncated(h.BrokerAddr), "peer": conn.RemoteAddr(),
			"expected": h.BodyCrc32, "actual": sums.bodyCrc()}, nil, "register broker: crc32 not match")
		outcome.refused(metrics.RefusedCRC)
		return withExt(systemError(req, "crc32 not match"), &registerBrokerResponseHeader{})
	}
	if req.Version < 0 {
		return withExt(systemError(req, fmt.Sprintf("invalid request version %d", req.Version)), &registerBrokerResponseHeader{})
	}
	if err := ns.registration.checkHeartbeatTimeout(h.HeartbeatTimeoutMillis); err != nil {
		ns.warn(logrus.Fields{"brokerAddr": truncated(h.BrokerAddr), "peer": conn.RemoteAddr()}, err, "register broker refused")
		outcome.refused(metrics.RefusedHeartbeatTimeout)
		return withExt(systemError(req, "register broker refused: "+err.Error()), &registerBrokerResponseHeader{})
	}
	reg := registrationRequest(conn, req, &h, sums)
	fields := registrationFields(conn, &h)
	result, events, err := ns.applyUnchangedRegistration(reg, sums)
	changed := errors.Is(err, route.ErrTopicTableRequired)
	if changed {
		ns.fullRegistrations.acquire()
		defer ns.fullRegistrations.release()
		release, held := ns.holdInflation(req.Version, h.Compressed, req.Body)
		if !held {
			ns.warn(fields, nil, "register broker refused: request memory limit, the body cannot be inflated now")
			outcome.refused(metrics.RefusedRequestMemory)
			return withExt(remoting.BusyResponse(req), &registerBrokerResponseHeader{})
		}
		defer release()
		body, filterServersGiven, decodeErr := decodeRegistrationBody(req.Version, h.Compressed, req.Body, ns.registration.frameLimit)
		if decodeErr != nil {
			ns.warn(fields, decodeErr, "register broker refused: body not decoded")
			outcome.refusal = metrics.RefusedUndecodable // result: error, as before
			return withExt(systemError(req, decodeFailedRemark+": "+decodeErr.Error()), &registerBrokerResponseHeader{})
		}
		reg.UndecodedDataVersion, reg.Body, reg.FilterServersGiven = nil, body, filterServersGiven
		fields["topics"] = len(body.TopicConfigSerializeWrapper.TopicConfigTable)
		fields["dataVersion"] = body.TopicConfigSerializeWrapper.DataVersion
		result, events, err = ns.routes.RegisterBroker(reg, ns.clock.Now())
	}
	if errors.Is(err, route.ErrStaleStateVersion) {
		return ns.staleStateVersion(req, fields, err, &outcome)
	}
	if errors.Is(err, route.ErrRegisterRefused) {
		outcome.refused(metrics.RefusedSingleTopic)
		ns.warn(fields, nil, "register broker refused: first registration with a single topic")
		return withExt(systemError(req, "register broker failed"), &registerBrokerResponseHeader{})
	}
	if refused, reason := registrationRefusal(err); refused != "" {
		outcome.refused(reason)
		ns.warn(fields, err, refused)
		return withExt(systemError(req, refused+": "+err.Error()), &registerBrokerResponseHeader{})
	}
	if err != nil {
		ns.warnings.Log(ns.log, logrus.ErrorLevel, fields, err, "register broker")
		return withExt(systemError(req, "register broker: "+err.Error()), &registerBrokerResponseHeader{})
	}
	if changed {
		ns.log.WithFields(fields).Info("broker registered")
	} else {
		ns.log.WithFields(fields).Debug("broker re-registered, unchanged")
	}
	return ns.registered(conn, req, result, events, &outcome)
}

// quickRegisterBroker is registerBroker for the event loop (remoting.TryFirst):
// it answers a registration whose topic table is unchanged (a periodic
// re-registration, or a new DataVersion over the same table), and only if
// the route writer lock is free at once. It returns nil, having changed and
// counted nothing, for every other registration, and for any the worker
// would refuse or log above debug: registerBroker then serves it as before.
func (ns *NameServer) quickRegisterBroker(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h registerBrokerRequestHeader
	if remoting.DecodeHeader(req, &h) != nil || req.Version < 0 || ns.registration.checkHeartbeatTimeout(h.HeartbeatTimeoutMillis) != nil ||
		!maySkipBody(req.Version, h.Compressed, req.Body) { // a body in another format is decoded: the worker's, no CRC taken here
		return nil
	}
	outcome := registrationOutcome{started: time.Now(), bodyBytes: len(req.Body)}
	sums := sumRegistrationBody(req, h.Compressed, quickVersionWithin)
	if !sums.skippable || !sums.crcMatches(&h) {
		return nil
	}
	sums.kind = &outcome.kind
	reg := registrationRequest(conn, req, &h, sums)
	reg.NoWait = true
	result, events, err := ns.applyUnchangedRegistration(reg, sums)
	if err != nil {
		return nil
	}
	req.ReleaseBody()
	if ns.log.Logger.IsLevelEnabled(logrus.DebugLevel) {
		ns.log.WithFields(registrationFields(conn, &h)).Debug("broker re-registered, unchanged")
	}
	resp := ns.registered(conn, req, result, events, &outcome)
	ns.observeRegistration(&outcome)
	ns.obs.metrics.RegistrationOnLoop()
	return resp
}

// registrationRequest is the route's request for a registration whose
// header and body sums were read.
func registrationRequest(conn *remoting.Conn, req *remoting.Command, h *registerBrokerRequestHeader, sums registrationSums) *route.RegisterBrokerRequest {
	return &route.RegisterBrokerRequest{
		ClusterName:            h.ClusterName,
		BrokerAddr:             h.BrokerAddr,
		BrokerName:             h.BrokerName,
		HAServerAddr:           h.HAServerAddr,
		ZoneName:               h.ZoneName,
		BrokerID:               h.BrokerID,
		Version:                req.Version,
		HeartbeatTimeoutMillis: h.HeartbeatTimeoutMillis,
		EnableActingMaster:     h.EnableActingMaster,
		Conn:                   route.ConnID(conn.ID()),
		ConnOpen:               connOpen(conn),
		ArrivalSeq:             req.ArrivalSeq(),
		BodyFingerprint:        bodyFingerprint(req.Version, sums.bodyCrc(), req.Body),
		TableFingerprint:       sums.TableFingerprint,
	}
}

// registrationFields are the log fields of a registration.
func registrationFields(conn *remoting.Conn, h *registerBrokerRequestHeader) logrus.Fields {
	return logrus.Fields{"cluster": truncated(h.ClusterName), "brokerName": truncated(h.BrokerName), "brokerId": h.BrokerID,
		"brokerAddr": truncated(h.BrokerAddr), "peer": conn.RemoteAddr()}
}

// registered answers an applied registration: the master's addresses for a
// slave, the order-topic config when returnOrderTopicConfigToBroker is on.
// It remembers the broker's connection and queues the notifications.
func (ns *NameServer) registered(conn *remoting.Conn, req *remoting.Command, result route.RegisterBrokerResult,
	events []route.MinBrokerIDChange, outcome *registrationOutcome) *remoting.Command {
	outcome.result = metrics.ResultSuccess
	if result.TakenOver != nil {
		ns.tookOver(conn, req, result.TakenOver)
	}
	ns.server.MarkBroker(conn) // its later requests, and those of its address, may use the broker headroom
	if ns.brokers.remember(conn) {
		ns.obs.metrics.BrokerConnOpened()
	}
	ns.notifier.send(events)
	respHeader := registerBrokerResponseHeader{}
	if result.HAServerAddr != "" {
		respHeader.HAServerAddr = &result.HAServerAddr
	}
	if result.MasterAddr != "" {
		respHeader.MasterAddr = &result.MasterAddr
	}
	resp := withExt(success(req), &respHeader)
	if ns.settings.Get().ReturnOrderTopicConfigToBroker {
		if orderConf, ok := ns.kv.KVTableJSON(kvconfig.OrderTopicConfigNamespace); ok {
			resp.Body = orderConf
		}
	}
	return resp
}

// registrationSums is what the registration reads of a body before deciding
// whether to decode it.
type registrationSums struct {
	route.RegisterBrokerBodySums
	// skippable says the body is plain JSON of the current format, whose
	// DataVersion and table fingerprint were read without decoding it.
	skippable bool
	// kind, when set, receives the registration's kind for the metrics.
	kind *string
}

// bodyCrc is the body's CRC as the bodyCrc32 header field carries it.
func (s registrationSums) bodyCrc() int32 { return int32(s.CRC & 0x7FFFFFFF) }

// crcMatches says whether the body matches the header's bodyCrc32 (0: not
// given, nothing to check).
func (s registrationSums) crcMatches(h *registerBrokerRequestHeader) bool {
	return h.BodyCrc32 == 0 || s.bodyCrc() == h.BodyCrc32
}

// setKind records the registration's kind, if anyone asked.
func (s registrationSums) setKind(kind string) {
	if s.kind != nil {
		*s.kind = kind
	}
}

// quickVersionWithin is how far into a body quickRegisterBroker looks for
// its DataVersion: brokers write it within the first hundred bytes, and a
// body that puts its topic table first is left to the worker rather than
// scanned on the event loop.
const quickVersionWithin = 16 << 10

// sumRegistrationBody reads what the registration needs of its body before
// deciding whether to decode it: its CRC (taken by the server as a large
// frame arrived, or computed here), and for a body that may skip decoding
// its DataVersion and table fingerprint (route.SumRegisterBrokerBodyWithin,
// which reads only the bytes up to the version, and no further than its
// first within bytes). The fingerprint is recorded with a full apply too, so
// that the next new DataVersion with the same table can skip it.
func sumRegistrationBody(req *remoting.Command, compressed bool, within int) registrationSums {
	crc, known := req.BodyCRC32()
	if !known {
		crc = crcfast.Checksum(req.Body)
	}
	if !maySkipBody(req.Version, compressed, req.Body) {
		return registrationSums{RegisterBrokerBodySums: route.RegisterBrokerBodySums{CRC: crc}}
	}
	sums, err := route.SumRegisterBrokerBodyWithin(req.Body, crc, within)
	return registrationSums{RegisterBrokerBodySums: sums, skippable: err == nil}
}

// applyUnchangedRegistration is the fast path of a re-registration whose
// topic table and filter servers would change nothing, so the body is not
// decoded: either its DataVersion and fingerprint equal those last applied
// for this broker (a periodic re-registration), or only its DataVersion
// differs from the body last written in full (a broker after a config
// change, or Java's JMH brokers). It answers route.ErrTopicTableRequired
// when the full path must run.
// The kind it took (for the metrics) goes to sums.kind when set.
func (ns *NameServer) applyUnchangedRegistration(reg *route.RegisterBrokerRequest, sums registrationSums) (route.RegisterBrokerResult, []route.MinBrokerIDChange, error) {
	sums.setKind(metrics.RegistrationFullTable)
	if !sums.skippable {
		return route.RegisterBrokerResult{}, nil, route.ErrTopicTableRequired
	}
	dv := sums.DataVersion
	kind := metrics.RegistrationUnchanged
	if !ns.routes.IsUnchangedRegistration(reg.ClusterName, reg.BrokerAddr, reg.BrokerID, dv, reg.BodyFingerprint) {
		if !ns.routes.IsUnchangedTopicTable(reg.ClusterName, reg.BrokerAddr, reg.BrokerID, reg.TableFingerprint) {
			return route.RegisterBrokerResult{}, nil, route.ErrTopicTableRequired
		}
		kind = metrics.RegistrationNewDataVersion
	}
	reg.UndecodedDataVersion = &dv
	reg.FilterServersGiven = true
	result, events, err := ns.routes.RegisterBroker(reg, ns.clock.Now())
	if !errors.Is(err, route.ErrTopicTableRequired) {
		sums.setKind(kind)
	}
	return result, events, err
}

// maySkipBody says whether a registration body is plain JSON of the current
// format, the only one whose DataVersion and table fingerprint are read
// without decoding it.
func maySkipBody(version int32, compressed bool, body []byte) bool {
	return version >= route.VersionV3_0_11 && !compressed && len(body) > 0 && !route.LooksLikeZlib(body)
}

// bodyFingerprint identifies a registration body by its CRC, length and the
// request version that chose its format; 0 (unknown) only for an empty body.
func bodyFingerprint(version int32, crc int32, body []byte) uint64 {
	if len(body) == 0 {
		return 0
	}
	return uint64(uint32(crc))<<32 | uint64(uint32(len(body)))&0xFFFFFF<<8 | uint64(version&0xFF)
}

// decodeRegistrationBody picks the body format by request version and the
// compressed flag (protocol.md 2.4 step 2). A zlib stream sent with
// compressed=false is decoded as compressed: Java brokers since RIP-32 always
// send false (quirk Q7, tolerated). The second result says whether the body
// carried a filter-server list (the old format does not).
func decodeRegistrationBody(version int32, compressed bool, raw []byte, frameLimit int64) (*route.RegisterBrokerBody, bool, error) {
	if version < route.VersionV3_0_11 {
		wrapper := route.TopicConfigSerializeWrapper{}
		if len(raw) > 0 {
			w, err := route.DecodeTopicConfigSerializeWrapper(raw)
			if err != nil {
				return nil, false, err
			}
			wrapper = *w
		}
		return &route.RegisterBrokerBody{TopicConfigSerializeWrapper: wrapper}, false, nil
	}
	if len(raw) == 0 {
		return &route.RegisterBrokerBody{}, true, nil
	}
	if isCompressedBody(version, compressed, raw) {
		body, err := route.DecodeCompressedRegisterBrokerBodyWithin(raw, version, route.InflatedLimit(len(raw), frameLimit))
		return body, true, err
	}
	body, err := route.DecodeRegisterBrokerBody(raw)
	return body, true, err
}

// unregisterBroker queues a broker's departure (UNREGISTER_BROKER, 104). As in
// Java the answer goes out before the tables change; the registration
// generation captured now fences the request against a broker that registers
// again before the worker runs (apache/rocketmq#11043). Against a
// registration sent on the same connection, arrival order decides instead:
// REGISTER then UNREGISTER removes the broker whichever is applied first.
func (ns *NameServer) unregisterBroker(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h brokerIdentityHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	if err := route.CheckBrokerIdentity(h.ClusterName, h.BrokerName, h.BrokerAddr); err != nil {
		return systemError(req, "unregister broker refused: "+err.Error())
	}
	ok := ns.unregister.submit(route.UnregisterRequest{
		ClusterName: h.ClusterName,
		BrokerAddr:  h.BrokerAddr,
		BrokerName:  h.BrokerName,
		BrokerID:    h.BrokerID,
		Generation:  ns.routes.Generation(h.ClusterName, h.BrokerAddr),
		Conn:        route.ConnID(conn.ID()),
		ArrivalSeq:  req.ArrivalSeq(),
		ConnOpen:    connOpen(conn),
	})
	if !ok {
		ns.warn(logrus.Fields{"brokerAddr": truncated(h.BrokerAddr), "peer": conn.RemoteAddr()}, nil, "unregister queue full, request dropped")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, "")
	}
	return success(req)
}

// registerTopic adds queue data for a topic (REGISTER_TOPIC_IN_NAMESRV, 217).
// It answers 0 even when an unknown broker name made the route manager refuse
// the topic, as Java does.
func (ns *NameServer) registerTopic(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h topicRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	if err := route.CheckTopicName(h.Topic); err != nil {
		return systemError(req, "register topic refused: "+err.Error())
	}
	if len(req.Body) == 0 {
		return success(req)
	}
	data, err := route.DecodeTopicRouteData(req.Body)
	if err != nil {
		return systemError(req, "decode TopicRouteData: "+err.Error())
	}
	if len(data.QueueDatas) > 0 {
		ns.routes.RegisterTopic(h.Topic, data.QueueDatas)
	}
	return success(req)
}

// queryDataVersion tells a broker whether its registration is current (322)
// and refreshes its liveness, since brokers also use it as a heartbeat.
func (ns *NameServer) queryDataVersion(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h brokerIdentityHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	stored, changed, ok := ns.routes.QueryDataVersionJSON(h.ClusterName, h.BrokerAddr, req.Body, ns.clock.Now())
	if !ok {
		_, err := route.DecodeDataVersion(req.Body)
		return systemError(req, fmt.Sprintf("decode DataVersion: %v", err))
	}
	resp := withExt(success(req), &queryDataVersionResponseHeader{Changed: changed})
	resp.Body = bytes.Clone(stored) // the stored encoding is shared
	return resp
}

// brokerHeartbeat refreshes a live broker (BROKER_HEARTBEAT, 904); an unknown
// broker is ignored.
func (ns *NameServer) brokerHeartbeat(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h brokerHeartbeatRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	ns.routes.Heartbeat(h.ClusterName, h.BrokerAddr, ns.clock.Now())
	ns.obs.metrics.Heartbeat()
	return success(req)
}

// wipeWritePermOfBroker drains a broker group (205): its queues stop taking writes.
func (ns *NameServer) wipeWritePermOfBroker(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h brokerNameRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	return withExt(success(req), &wipeWritePermResponseHeader{WipeTopicCount: ns.drainBroker(h.BrokerName)})
}

// addWritePermOfBroker gives a drained broker group its writes back (327).
func (ns *NameServer) addWritePermOfBroker(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h brokerNameRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	return withExt(success(req), &addWritePermResponseHeader{AddTopicCount: ns.undrainBroker(h.BrokerName)})
}

// deleteTopicInNamesrv removes a topic, or only one cluster's share of it (216).
func (ns *NameServer) deleteTopicInNamesrv(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h deleteTopicRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	ns.routes.DeleteTopic(h.Topic, h.ClusterName)
	ns.log.WithFields(logrus.Fields{"topic": h.Topic, "cluster": h.ClusterName}).Info("topic deleted")
	return success(req)
}

// connOpen asks whether conn is still open, for the route manager to check
// under its lock: the close is marked before it is queued, so an answer of
// true is always followed by the close reaching the tables.
func connOpen(conn *remoting.Conn) func() bool { return func() bool { return !conn.Closed() } }

// connectionClosed hands a closed connection to the unregistration worker; it
// runs on the event loop, so it only records the identity and returns.
func (ns *NameServer) connectionClosed(conn *remoting.Conn) {
	ns.brokers.forget(conn)
	ns.unregister.connectionClosed(route.ConnID(conn.ID()), conn.RemoteAddr())
}
