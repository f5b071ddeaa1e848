package namesrv

import (
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// MaxShutdownWait bounds shutdownWaitTimeSeconds: a larger value (say
// 2147483647, 68 years, set over the wire) is taken as this, so a stop can
// never be postponed for good.
const MaxShutdownWait = 10 * time.Minute

// gracefulWaitOf is the GO_AWAY wait of cfg, bounded by MaxShutdownWait.
// Read once at start, as the README says of shutdownWaitTimeSeconds.
func gracefulWaitOf(cfg *config.Config, log *logrus.Entry) time.Duration {
	if !cfg.EnableShutdownGracefully || cfg.ShutdownWaitTimeSeconds <= 0 {
		return 0
	}
	if int64(cfg.ShutdownWaitTimeSeconds) > int64(MaxShutdownWait/time.Second) {
		log.WithFields(logrus.Fields{"shutdownWaitTimeSeconds": cfg.ShutdownWaitTimeSeconds,
			"used": MaxShutdownWait.String()}).Warn("shutdownWaitTimeSeconds above its bound, bound used")
		return MaxShutdownWait
	}
	return time.Duration(cfg.ShutdownWaitTimeSeconds) * time.Second
}
