package config

import (
	"fmt"
	"slices"

	"github.com/gonamesrv/gonamesrv/internal/portguard"
)

// bound is the range a numeric setting must lie in, inclusive.
type bound struct{ min, max int64 }

// Size units of the bounds.
const (
	kib = 1 << 10
	mib = 1 << 20
	gib = 1 << 30
)

// bounds hold every numeric setting to a range the server keeps working in,
// at start and over the wire alike: no pool, queue, interval or limit can be
// 0, negative or so large that the server stops (a queue of 2^31 jobs is
// allocated at start; an idle timeout of 2^31 s never closes).
// docs/configuration.md shows them (make docs).
var bounds = map[string]bound{
	"clientRequestThreadPoolNums":          {1, 1024},
	"defaultThreadPoolNums":                {1, 1024},
	"clientRequestThreadPoolQueueCapacity": {1, 1_000_000},
	"defaultThreadPoolQueueCapacity":       {1, 1_000_000},
	"scanNotActiveBrokerInterval":          {1, 86_400_000}, // ms: a day
	"unRegisterBrokerQueueCapacity":        {1, 1_000_000},
	"waitSecondsForService":                {0, 600},
	"listenPort":                           {0, 65535},
	"httpListenPort":                       {-1, 65535}, // -1 turns the HTTP side port off
	"serverWorkerThreads":                  {0, 1024},
	"serverCallbackExecutorThreads":        {0, 1024},
	"serverSelectorThreads":                {0, 1024},
	"serverOnewaySemaphoreValue":           {0, 1_000_000},
	"serverAsyncSemaphoreValue":            {0, 1_000_000},
	"serverChannelMaxIdleTimeSeconds":      {1, 86_400},
	"serverSocketSndBufSize":               {0, 64 * mib},
	"serverSocketRcvBufSize":               {0, 64 * mib},
	"writeBufferHighWaterMark":             {0, gib},
	"writeBufferLowWaterMark":              {0, gib},
	"serverSocketBacklog":                  {0, 65535},
	"shutdownWaitTimeSeconds":              {0, 600},
	"frameMaxLength":                       {kib, gib},
	"requestMemoryLimit":                   {mib, 1 << 40},
	"minBrokerHeartbeatTimeoutMillis":      {100, 86_400_000},
	"maxBrokerHeartbeatTimeoutMillis":      {100, 86_400_000},
	"maxConnections":                       {1, 10_000_000},
	"pauseDetectThresholdMillis":           {1, 3_600_000},
	"readinessWarmUpMillis":                {0, 600_000},
	"peerRoutesHealMillis":                 {0, 3_600_000},
	"httpMaxConnections":                   {1, 100_000},
	"httpIdleTimeoutSeconds":               {1, 3600},
	"httpHeavyViewConcurrency":             {1, 64},
	"httpHeavyViewMemoryLimit":             {mib, 64 * gib},
	"tlsHandshakeMaxConcurrent":            {1, 1_000_000},
	"tlsHandshakeTimeoutMillis":            {100, 600_000},
	"connectionOutboundSoftLimit":          {64 * kib, gib},
	"connectionOutboundHardLimit":          {mib, 4 * gib},
	"logMaxSizeMB":                         {1, 1 << 20}, // MB: 1 TB
	"logMaxAgeDays":                        {0, 36_500},
	"logMaxBackups":                        {0, 10_000},
	"outboundMemoryLimit":                  {0, 1 << 40},
	"requestMemoryBrokerHeadroom":          {0, 1 << 40},
	"requestMemoryPerConnection":           {0, 1 << 40},
	"requestMemoryPerStranger":             {0, 1 << 40},
	"largeFrameStallTimeoutMillis":         {100, 3_600_000},
	"largeFrameMinBytesPerSecond":          {0, gib},
	"brokerChannelExpiredTime":             {1000, 86_400_000}, // ms: a day
	"controllerMaxEpochJump":               {1, 1<<31 - 1},     // a masterEpoch is an int32
	"peerWarmStartTimeoutMillis":           {0, 60_000},
}

// Bounds returns the range of a numeric setting and whether it has one.
func Bounds(key string) (lo, hi int64, ok bool) {
	b, ok := bounds[key]
	return b.min, b.max, ok
}

// checkBounds reports the first setting, in key order, outside its range.
func (c *Config) checkBounds() error {
	for _, s := range settings {
		b, ok := bounds[s.Key]
		if !ok {
			continue
		}
		if n := c.intValue(s); n < b.min || n > b.max {
			return &KeyError{Key: s.Key, Reason: fmt.Sprintf("%d is outside %d..%d", n, b.min, b.max)}
		}
	}
	return nil
}

// choices are the settings that take one of a few words.
var choices = map[string][]string{
	"logFormat":                   {LogFormatText, LogFormatJSON},
	"tls.server.mode":             portguard.TLSModeWords,
	"tls.server.need.client.auth": portguard.ClientAuthWords,
}

// checkChoices reports the first word setting with a word it does not know.
func (c *Config) checkChoices() error {
	for _, s := range settings {
		allowed, ok := choices[s.Key]
		if !ok {
			continue
		}
		if value := c.format(s); !slices.Contains(allowed, value) {
			return &KeyError{Key: s.Key, Reason: fmt.Sprintf("%q is not one of %v", value, allowed)}
		}
	}
	return nil
}
