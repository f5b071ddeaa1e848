package namesrv

import (
	"time"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Fractions of requestMemoryLimit that the request memory keys take when
// left at 0: a quarter kept for known brokers, an eighth for one broker's
// connection, a 64th for any other connection (16 MiB of the default 1 GiB,
// one frame of the largest size).
const (
	brokerHeadroomFraction = 4
	perConnectionFraction  = 8
	perStrangerFraction    = 64
)

// applyRequestMemoryRules sets the request memory rules of issue 21 item 4
// on the remoting server's configuration: what only known brokers may take,
// each connection's share, and the large-frame stall and rate.
func applyRequestMemoryRules(srv *remoting.ServerConfig, cfg *config.Config) {
	limit := cfg.RequestMemoryLimit
	srv.RequestMemoryBrokerHeadroom = orFraction(cfg.RequestMemoryBrokerHeadroom, limit, brokerHeadroomFraction)
	srv.RequestMemoryPerConnection = orFraction(cfg.RequestMemoryPerConnection, limit, perConnectionFraction)
	srv.RequestMemoryPerStranger = orFraction(cfg.RequestMemoryPerStranger, limit, perStrangerFraction)
	srv.LargeFrameStallTimeout = time.Duration(cfg.LargeFrameStallTimeoutMillis) * time.Millisecond
	srv.LargeFrameMinRate = cfg.LargeFrameMinBytesPerSecond
}

// orFraction is value, or limit/fraction when value is 0.
func orFraction(value, limit, fraction int64) int64 {
	if value > 0 {
		return value
	}
	return limit / fraction
}

// frameCounts reads the remoting server's figures of frames still arriving.
func (ns *NameServer) frameCounts() metrics.FrameCounts {
	closes := ns.server.FrameCloses()
	out := metrics.FrameCounts{Arriving: ns.server.RequestMemoryArriving(), Closes: make(map[string]uint64, len(closes))}
	for i, reason := range remoting.FrameCloseReasons {
		out.Closes[reason] = closes[i]
	}
	return out
}
