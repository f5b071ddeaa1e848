package namesrv

import (
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestLogLevelBackToItsDefaultOverTheWire: logLevel=debug applies, and so
// does logLevel=info after it (before, the server stayed at debug).
func TestLogLevelBackToItsDefaultOverTheWire(t *testing.T) {
	s := startServer(t, nil)
	for _, level := range []logrus.Level{logrus.DebugLevel, logrus.InfoLevel} {
		resp := s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("logLevel="+level.String()+"\n"))
		nstest.MustCode(t, resp, remoting.SUCCESS)
		if got := s.logger.GetLevel(); got != level {
			t.Fatalf("after logLevel=%s the server logs at %s", level, got)
		}
	}
}
