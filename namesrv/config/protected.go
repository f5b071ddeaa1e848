package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/sirupsen/logrus"
)

// ProtectedKeys decide what the server exposes and how it protects itself:
// the listen address and port, the frame, memory and idle limits, every
// ACL and TLS key, the admin allow-list and the HTTP side port's address;
// and addressServerList and peerNamesrvAddrs, the NameServer list every
// HTTP-resolver client follows (one update would redirect them all), with
// peerAccessKey and peerSecretKey, the account the peers are asked with
// (an update would send that account's signatures elsewhere), and
// scanNotActiveBrokerInterval (86,400,000 would leave dead brokers routed
// for a day after the next start).
// UPDATE_NAMESRV_CONFIG refuses them (code 16), so that nobody who can
// reach the port can widen its exposure or switch a protection off at the
// next start; they change in the -c file or on the command line only.
var ProtectedKeys = []string{
	"bindAddress", "listenPort", "requestMemoryLimit", "serverChannelMaxIdleTimeSeconds", "frameMaxLength",
	"aclEnable", "aclFile", "aclAnonymousRouteRead", "adminWhiteRemoteAddresses",
	"httpBindAddress", "httpListenPort",
	"maxConnections", "connectionOutboundSoftLimit", "connectionOutboundHardLimit", "outboundMemoryLimit",
	"minBrokerHeartbeatTimeoutMillis", "maxBrokerHeartbeatTimeoutMillis", "pauseDetectThresholdMillis",
	"logFile", "logMaxSizeMB", "logMaxAgeDays", "logMaxBackups", // a log path set over the wire could overwrite any file
	"readinessWarmUpMillis", "httpMaxConnections", "httpIdleTimeoutSeconds", "httpHeavyViewConcurrency",
	"httpHeavyViewMemoryLimit", "tlsHandshakeMaxConcurrent", "tlsHandshakeTimeoutMillis",
	"addressServerList", "peerNamesrvAddrs", "peerAccessKey", "peerSecretKey", "peerWarmStartTimeoutMillis", "scanNotActiveBrokerInterval",
	"requestMemoryBrokerHeadroom", "requestMemoryPerConnection", "requestMemoryPerStranger",
	"largeFrameStallTimeoutMillis", "largeFrameMinBytesPerSecond",
	"controllerFencing", // off, a stale master could take its set's id 0 back
	// who may move routes by election notice, how far, and how long an
	// address so put at id 0 stays without registering
	"controllerAddr", "controllerMaxEpochJump", "brokerChannelExpiredTime",
}

// protectedPrefixes protect whole families: every TLS key, including the
// Java ones this server does not read (tls.server.keyPassword, ...), and
// every future acl key.
var protectedPrefixes = []string{"tls.", "acl"}

// IsProtected reports whether key may not be changed over the wire.
func IsProtected(key string) bool {
	if slices.Contains(ProtectedKeys, key) || controllerKey(key) {
		return true
	}
	for _, prefix := range protectedPrefixes {
		if strings.HasPrefix(key, prefix) {
			return true
		}
	}
	return false
}

// MaxWireValueLength bounds a value set over the wire (4 KiB).
const MaxWireValueLength = 4 << 10

// wireLogLevels are the levels UPDATE_NAMESRV_CONFIG may set: panic and
// fatal are refused, since they silence every later log line, the
// change's own included.
var wireLogLevels = []string{"trace", "debug", "info", "warn", "warning", "error"}

// setFromWire stores one value of UPDATE_NAMESRV_CONFIG, stricter than the
// -c file's Java rules: a boolean must be true or false, a number must
// convert, logLevel must be a level that keeps logging.
func (c *Config) setFromWire(key, value string) error {
	if len(value) > MaxWireValueLength {
		return &KeyError{Key: key, Reason: fmt.Sprintf("value of %d bytes, more than %d", len(value), MaxWireValueLength)}
	}
	s, _ := fields.Lookup(key)
	trimmed := javaprops.TrimJava(value)
	if s.Kind.String() == "bool" && !strings.EqualFold(trimmed, "true") && !strings.EqualFold(trimmed, "false") {
		return &KeyError{Key: key, Reason: fmt.Sprintf("%q is not true or false", trimmed)}
	}
	if key == "logLevel" {
		level, err := logrus.ParseLevel(trimmed)
		if err != nil || !slices.Contains(wireLogLevels, strings.ToLower(trimmed)) || level < logrus.ErrorLevel {
			return &KeyError{Key: key, Reason: fmt.Sprintf("%q is not one of %v (panic and fatal would silence the log)", trimmed, wireLogLevels)}
		}
	}
	if err := c.Set(key, value); err != nil {
		return &KeyError{Key: key, Reason: fmt.Sprintf("%q does not convert to its type", trimmed)}
	}
	return nil
}

// unknownWireKey is the refusal of an UPDATE_NAMESRV_CONFIG key no setting
// has, with the closest known key: Java stores it and answers success, so
// a typo changed nothing while the operator read "success!".
func unknownWireKey(key string) error {
	reason := "unknown key"
	if closest := javaprops.Closest(key, Keys()); closest != "" {
		reason += " (closest known key: " + closest + ")"
	}
	return &KeyError{Key: key, Reason: reason}
}
