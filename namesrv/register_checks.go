package namesrv

import (
	"errors"
	"fmt"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
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

// checkHeartbeatTimeout refuses a heartbeatTimeoutMillis outside
// [minBrokerHeartbeatTimeoutMillis, maxBrokerHeartbeatTimeoutMillis]; an
// absent one means the 120 s default, which is always accepted.
func (ns *NameServer) checkHeartbeatTimeout(timeoutMillis *int64) error {
	if timeoutMillis == nil {
		return nil
	}
	cfg := ns.settings.Get()
	if *timeoutMillis < cfg.MinBrokerHeartbeatTimeoutMillis || *timeoutMillis > cfg.MaxBrokerHeartbeatTimeoutMillis {
		return fmt.Errorf("heartbeatTimeoutMillis %d outside [%d, %d] (minBrokerHeartbeatTimeoutMillis, maxBrokerHeartbeatTimeoutMillis)",
			*timeoutMillis, cfg.MinBrokerHeartbeatTimeoutMillis, cfg.MaxBrokerHeartbeatTimeoutMillis)
	}
	return nil
}

// registrationRefusal names a registration the route tables refused or
// ignored (the first words of its remark and its log line), "" for any
// other outcome.
func registrationRefusal(err error) string {
	switch {
	case errors.Is(err, route.ErrLimitExceeded):
		return "register broker refused"
	case errors.Is(err, route.ErrRegisterIgnored):
		return "register broker ignored"
	case errors.Is(err, route.ErrConnectionGone):
		return "register broker dropped"
	}
	return ""
}

// maxFrameSize is frameMaxLength, which also bounds what a compressed body
// may inflate to.
func (ns *NameServer) maxFrameSize() int64 {
	if size := ns.settings.Get().MaxFrameSize; size > 0 {
		return int64(size)
	}
	return config.DefaultMaxFrameSize
}
