package remoting

import (
	"encoding/binary"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/sirupsen/logrus"
)

// Remarks of the generic error answers (protocol.md 1.14).
const (
	// remarkOverload is Java's answer when a pool's queue is full.
	remarkOverload = "[OVERLOAD]system busy, start flow control for a while"
	// remarkGoAway is Java's GO_AWAY remark.
	remarkGoAway = "please go away"
)

// goAwayAfterVersion is MQVersion V5_3_1: only requests of later clients,
// which know GO_AWAY, are turned away while the server goes away; older
// ones are still served (Java NettyRemotingAbstract).
const goAwayAfterVersion = 475

// unsupportedRemark is Java's remark for an unknown code, leading space
// included (quirk Q28, reproduced).
func unsupportedRemark(code int32) string {
	return fmt.Sprintf(" request type %d not supported", code)
}

// dispatch routes one decoded frame and appends any answer to out. It runs
// on the event loop.
func (s *Server) dispatch(conn *Conn, request *Command, out []byte) (framed, body []byte) {
	if request.IsResponse() {
		s.memory.releaseRequest(request)
		s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "opaque": request.Opaque, "code": request.Code}).
			Debug("response with no pending request, dropped")
		return out, nil
	}
	conn.stampArrival(request)
	table := s.table.Load()
	r, found := table.byCode[request.Code]
	if !found && table.fallback != nil {
		r, found = *table.fallback, true
	}
	var response *Command
	var started int64 // stays 0 when no handler runs
	switch {
	case s.goingAway.Load() && request.Version > goAwayAfterVersion:
		response = NewResponse(request, GO_AWAY, remarkGoAway)
	case request.overMemory:
		response = s.busy(conn, request, "", "request memory limit reached, answering SYSTEM_BUSY")
	case !found:
		response = NewResponse(request, REQUEST_CODE_NOT_SUPPORTED, unsupportedRemark(request.Code))
	case r.slow:
		if r.quick != nil && conn.onPools.Load() == 0 {
			started = monotonicNanos()
			if response = s.runHandler(r.quick, conn, request); response != nil {
				break
			}
			started = 0
		}
		if response = s.submitSlow(conn, request, r); response == nil {
			return out, nil
		}
	default:
		started = monotonicNanos()
		response = s.runHandler(r.handler, conn, request)
	}
	s.memory.releaseRequest(request)
	framed, body = s.appendResponseParts(out, conn, request, response)
	s.answered(request, response, started, len(framed)-len(out)+len(body))
	return framed, body
}

// submitSlow queues request for a worker, counting a small frame's body
// against the request memory too (a large frame's bytes are counted as they
// arrive). It answers SYSTEM_BUSY when the memory limit or the queue is
// reached, nil when the request is queued.
func (s *Server) submitSlow(conn *Conn, request *Command, r route) *Command {
	if request.heldBytes == 0 {
		if !s.memory.reserveFor(conn, int64(len(request.Body))) {
			return s.busy(conn, request, r.pool, "request memory limit reached, answering SYSTEM_BUSY")
		}
		request.heldBytes, request.heldBy = int64(len(request.Body)), conn
	}
	pool, ok := s.pools[r.pool]
	if !ok {
		pool = s.pools[""]
	}
	conn.onPools.Add(1)
	if pool.submit(slowJob{conn: conn, request: request, handler: r.handler, pool: pool}) {
		return nil
	}
	conn.onPools.Add(-1)
	conn.poolOut.poolRefusedAt = time.Now().UnixNano() // flow control: see outputBlocked
	return s.busy(conn, request, r.pool, "slow pool full, answering SYSTEM_BUSY")
}

// busy answers SYSTEM_BUSY with Java's overload remark, logging why at most
// once a second (overloadLog).
func (s *Server) busy(conn *Conn, request *Command, pool, why string) *Command {
	s.overload.warn(s.log, func() logrus.Fields {
		return logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "code": RequestCodeName(request.Code),
			"pool": pool, "requestMemoryLimit": s.memory.limit}
	}, why, time.Now())
	s.observe().Busy(pool)
	return NewResponse(request, SYSTEM_BUSY, remarkOverload)
}

// runSlowJob runs one queued handler on a worker and writes its answer
// asynchronously; the job counts as finished once the write is done.
func (s *Server) runSlowJob(job slowJob) {
	started := monotonicNanos()
	response := s.runHandler(job.handler, job.conn, job.request)
	job.conn.onPools.Add(-1)
	s.memory.releaseRequest(job.request)
	frame, body := s.appendResponseParts(nil, job.conn, job.request, response)
	s.answered(job.request, response, started, len(frame)+len(body))
	if len(frame) == 0 {
		job.pool.finish()
		return
	}
	if err := s.queuePoolAnswer(job.conn, job.request, response, frame, body, job.pool.finish); err != nil {
		s.log.WithFields(logrus.Fields{"conn": job.conn.id, "remote": job.conn.remoteAddr}).WithError(err).
			Debug("slow answer not written")
	}
}

// sharedBodyWrite is the body size from which an answer is sent as its
// header and its body, unjoined, in one write: the cached list answers
// (3.9 MB of GET_ALL_TOPIC_LIST_FROM_NAMESERVER at 100,000 topics, ~200 KB
// of GET_BROKER_CLUSTER_INFO with 1,000 brokers) were copied into a new
// frame for every request, and at a few hundred lists (thousands of cluster
// infos) a second that garbage set the server's peak memory.
const sharedBodyWrite = 64 << 10

// appendResponseParts is appendResponse for an answer that may go out in
// two parts: for a body of sharedBodyWrite bytes or more that is not lent,
// only the header is appended to out (the frame length counts the body) and
// body is returned, to be written right behind it before anything else;
// otherwise body is nil and the whole frame is appended.
func (s *Server) appendResponseParts(out []byte, conn *Conn, request, response *Command) (framed, body []byte) {
	if response == nil || response.lentBody != nil || len(response.Body) < sharedBodyWrite || request.IsOneway() {
		return s.appendResponse(out, conn, request, response), nil
	}
	body, response.Body = response.Body, nil
	framed = s.appendResponse(out, conn, request, response)
	response.Body = body
	header := len(framed) - len(out)
	if header == 0 || header+len(body) > s.cfg.MaxFrameSize {
		// not encoded, or past the frame limit: the whole frame, which
		// appendResponse refuses or answers as always
		return s.appendResponse(framed[:len(out)], conn, request, response), nil
	}
	binary.BigEndian.PutUint32(framed[len(out):], uint32(header-frameLengthSize+len(body)))
	return framed, body
}

// runHandler calls h, turning a panic into a SYSTEM_ERROR answer.
func (s *Server) runHandler(h Handler, conn *Conn, request *Command) (response *Command) {
	defer func() {
		if recovered := recover(); recovered != nil {
			s.log.WithFields(logrus.Fields{
				"conn": conn.id, "remote": conn.remoteAddr, "code": RequestCodeName(request.Code),
				"panic": fmt.Sprint(recovered), "stack": string(debug.Stack()),
			}).Error("handler panicked")
			response = NewResponse(request, SYSTEM_ERROR,
				fmt.Sprintf("handler of request code %d failed: %v", request.Code, recovered))
		}
	}()
	return h(conn, request)
}

// appendResponse finishes response for request (flag, opaque, serialize
// type) and appends its frame, unless there is nothing to send: no
// response, or a one-way request, which is never answered. A lent body's
// buffer goes back to its AnswerBuffers either way.
func (s *Server) appendResponse(out []byte, conn *Conn, request, response *Command) []byte {
	if response == nil {
		return out
	}
	defer response.returnLentBody() // the body is copied into the frame, or not sent
	if request.IsOneway() {
		return out
	}
	response.MarkResponse()
	response.Opaque = request.Opaque
	response.SerializeType = request.SerializeType
	framed, err := AppendFrame(out, response)
	if err != nil && response.SerializeType != JSON {
		// A binary header cannot carry a code or version beyond 16 bits;
		// every peer also reads JSON, so answer in JSON rather than not at all.
		response.SerializeType = JSON
		framed, err = AppendFrame(out, response)
	}
	if err != nil {
		s.log.WithFields(logrus.Fields{"conn": conn.id, "code": response.Code}).WithError(err).Error("cannot encode response")
		return out
	}
	return s.fitFrameLimit(framed, len(out), conn, request, response)
}
