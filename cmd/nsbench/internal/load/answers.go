package load

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sync/atomic"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// maxKnownAnswers bounds the answer shapes an AnswerCheck remembers: a
// server may order a cluster's brokers differently from topic to topic.
const maxKnownAnswers = 16

// AnswerCheck checks answer frames of one kind (the routes of one cluster,
// heartbeats) as they arrive: a frame byte for byte equal, apart from its
// opaque, to one that passed is accepted without decoding; any other is
// decoded and given to check, and remembered when it passes. Safe for the
// checks of every connection at once: readers load an immutable list.
type AnswerCheck struct {
	check Check
	known atomic.Pointer[[]answerShape]
}

// answerShape is a frame that passed, cut around its opaque's digits: the
// header word without the digits in its length, the bytes between the
// length words and the digits, and those after the digits. (The length
// words follow from the digits' count, which varies with the opaque.)
type answerShape struct {
	headerWord uint32
	head, tail []byte
}

// NewAnswerCheck checks decoded answers with check.
func NewAnswerCheck(check Check) *AnswerCheck { return &AnswerCheck{check: check} }

// Verify checks one complete answer frame (length field included: the
// caller has checked it against the frame's size) whose opaque digits are
// frame[start:end] (start == end: not found, the frame is decoded); ""
// means right.
func (a *AnswerCheck) Verify(frame []byte, start, end int) string {
	if start < end {
		if list := a.known.Load(); list != nil {
			word := binary.BigEndian.Uint32(frame[4:]) - uint32(end-start)
			for _, s := range *list {
				if len(s.head) == start-8 && len(s.tail) == len(frame)-end && s.headerWord == word &&
					bytes.Equal(s.tail, frame[end:]) && bytes.Equal(s.head, frame[8:start]) {
					return ""
				}
			}
		}
	}
	resp, err := remoting.DecodeFrame(frame[4:])
	if err != nil {
		return "bad answer frame"
	}
	if kind := a.check(resp); kind != "" {
		return kind
	}
	if start < end {
		a.remember(frame, start, end)
	}
	return ""
}

// remember adds a copy of a passed frame's shape unless the list is full;
// a lost race only costs a later decode.
func (a *AnswerCheck) remember(frame []byte, start, end int) {
	old := a.known.Load()
	var list []answerShape
	if old != nil {
		list = *old
	}
	if len(list) >= maxKnownAnswers {
		return
	}
	grown := append(slices.Clip(list), answerShape{headerWord: binary.BigEndian.Uint32(frame[4:]) - uint32(end-start),
		head: bytes.Clone(frame[8:start]), tail: bytes.Clone(frame[end:])})
	a.known.CompareAndSwap(old, &grown)
}
