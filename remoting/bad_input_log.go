package remoting

import (
	"errors"
	"io"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
)

// peerGone reports whether a read error only says that the peer closed or
// reset the connection in the middle of a frame: a broker or client being
// stopped does that, it is no bad input.
func peerGone(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// logBadInput records why a connection is being closed for what it sent:
// at debug level when the peer just went away mid-frame, else as a warning
// written at most once a second (a flood of garbage would otherwise become
// a flood of log lines), the next one saying how many were held back.
func (s *Server) logBadInput(conn *Conn, err error) {
	if peerGone(err) {
		s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr}).WithError(err).
			Debug("peer closed the connection in the middle of a frame")
		return
	}
	s.badInput.warn(s.log, func() logrus.Fields {
		return logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "error": err.Error()}
	}, "bad input, closing the connection", time.Now())
}
