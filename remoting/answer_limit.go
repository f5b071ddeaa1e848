package remoting

import (
	"fmt"

	"github.com/sirupsen/logrus"
)

// fitFrameLimit keeps an answer within the frame limit: every client, ours
// and Java's, refuses a frame past frameMaxLength and drops its connection,
// so an answer that grew past it (a topic list of a registration flood) is
// replaced by a SYSTEM_ERROR answer that says so. framed holds the answer
// from start on.
func (s *Server) fitFrameLimit(framed []byte, start int, conn *Conn, request, response *Command) []byte {
	size := len(framed) - start
	if size <= s.cfg.MaxFrameSize {
		return framed
	}
	remark := fmt.Sprintf("the answer of %d bytes is larger than the frame limit of %d bytes (frameMaxLength)", size, s.cfg.MaxFrameSize)
	s.log.WithFields(logrus.Fields{"conn": conn.id, "remote": conn.remoteAddr, "code": RequestCodeName(request.Code),
		"answerBytes": size, "frameMaxLength": s.cfg.MaxFrameSize}).Warn("answer past the frame limit, answering SYSTEM_ERROR")
	refusal := NewResponse(request, SYSTEM_ERROR, remark)
	refusal.MarkResponse()
	refusal.Opaque, refusal.SerializeType = request.Opaque, response.SerializeType
	out, err := AppendFrame(framed[:start], refusal)
	if err != nil {
		return framed[:start]
	}
	return out
}
