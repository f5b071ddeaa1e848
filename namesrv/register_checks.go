package namesrv

import (
	"errors"
	"fmt"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

// maxLoggedFieldLength bounds a peer-given name or address in a log line:
// the registration refusing a 4 MiB broker name must not log it.
const maxLoggedFieldLength = 256

// truncated shortens a peer-given string for a log line.
func truncated(s string) string {
	if len(s) <= maxLoggedFieldLength {
		return s
	}
	return fmt.Sprintf("%s...(%d bytes)", s[:maxLoggedFieldLength], len(s))
}

// registrationLimits are the bounds of the keys a registration is checked
// against. They are read once at start, like every key that is not live, so
// an update over the wire cannot widen them for the running server.
type registrationLimits struct {
	minHeartbeatTimeoutMillis, maxHeartbeatTimeoutMillis int64
	// frameLimit is frameMaxLength, which also bounds what a compressed
	// body may inflate to.
	frameLimit int64
}

func registrationLimitsOf(cfg *config.Config) registrationLimits {
	frame := int64(cfg.MaxFrameSize)
	if frame <= 0 {
		frame = config.DefaultMaxFrameSize
	}
	return registrationLimits{minHeartbeatTimeoutMillis: cfg.MinBrokerHeartbeatTimeoutMillis,
		maxHeartbeatTimeoutMillis: cfg.MaxBrokerHeartbeatTimeoutMillis, frameLimit: frame}
}

// checkHeartbeatTimeout refuses a heartbeatTimeoutMillis outside
// [minBrokerHeartbeatTimeoutMillis, maxBrokerHeartbeatTimeoutMillis]; an
// absent one means the 120 s default, which is always accepted.
func (l registrationLimits) checkHeartbeatTimeout(timeoutMillis *int64) error {
	if timeoutMillis == nil {
		return nil
	}
	if *timeoutMillis < l.minHeartbeatTimeoutMillis || *timeoutMillis > l.maxHeartbeatTimeoutMillis {
		return fmt.Errorf("heartbeatTimeoutMillis %d outside [%d, %d] (minBrokerHeartbeatTimeoutMillis, maxBrokerHeartbeatTimeoutMillis)",
			*timeoutMillis, l.minHeartbeatTimeoutMillis, l.maxHeartbeatTimeoutMillis)
	}
	return nil
}

// registrationRefusal names a registration the route tables refused or
// ignored (the first words of its remark and its log line, and the reason
// it is counted under), "" for any other outcome.
func registrationRefusal(err error) (remark, reason string) {
	switch {
	case errors.Is(err, route.ErrLimitExceeded):
		return "register broker refused", metrics.RefusedLimit
	case errors.Is(err, route.ErrRegisterIgnored):
		return "register broker ignored", metrics.RefusedIgnored
	case errors.Is(err, route.ErrFencedByController):
		return "register broker refused", metrics.RefusedFenced
	case errors.Is(err, route.ErrConnectionGone):
		return "register broker dropped", metrics.RefusedConnectionGone
	}
	return "", ""
}

// holdInflation counts what a compressed body may inflate to against the
// request memory limit (requestMemoryLimit) while it is decoded and
// applied, so inflated bytes are charged like the frames that carry them;
// false when the limit has no room, and the registration is answered
// SYSTEM_BUSY (the broker registers again on its next period).
func (ns *NameServer) holdInflation(version int32, compressed bool, body []byte) (release func(), ok bool) {
	if !isCompressedBody(version, compressed, body) {
		return func() {}, true
	}
	n := route.InflatedLimit(len(body), ns.registration.frameLimit)
	if !ns.server.HoldRequestMemory(n) {
		return nil, false
	}
	return func() { ns.server.ReleaseRequestMemory(n) }, true
}

// isCompressedBody says whether a registration body is decoded as the
// compressed layout (protocol.md 3.8): by the compressed flag, or by its
// zlib header (quirk Q7), for request versions that carry a
// RegisterBrokerBody.
func isCompressedBody(version int32, compressed bool, body []byte) bool {
	return version >= route.VersionV3_0_11 && len(body) > 0 && (compressed || route.LooksLikeZlib(body))
}
