package namesrv

import (
	"github.com/sirupsen/logrus"
)

// logStartSummary writes one line, at warn level so that it is kept at
// -log-level warn (an operator who keeps only warnings still learns where
// the server listens and with which files and limits), with the listen
// address, the files and the limits in effect: maxConnections as lowered to
// the file limit, not as configured, and the registration workers as
// started (registrationWorkers lowers defaultThreadPoolNums to the
// processors less one, so 16 configured runs 1 worker on 2 cores).
func (ns *NameServer) logStartSummary() {
	cfg := ns.settings.Get()
	configFile := cfg.ConfigFile()
	if configFile == "" {
		configFile = "none (-c not given: configStorePath is written by config updates but not read at start)"
	}
	ns.log.WithFields(logrus.Fields{
		"address":                         ns.Addr().String(),
		"configFile":                      configFile,
		"configStorePath":                 cfg.ConfigStorePath,
		"kvConfigPath":                    cfg.KvConfigPath,
		"frameMaxLength":                  cfg.MaxFrameSize,
		"requestMemoryLimit":              cfg.RequestMemoryLimit,
		"maxConnections":                  ns.server.MaxConnections(),
		"connectionOutboundSoftLimit":     cfg.ConnectionOutboundSoftLimit,
		"connectionOutboundHardLimit":     cfg.ConnectionOutboundHardLimit,
		"outboundMemoryLimit":             ns.server.OutboundMemoryLimit(),
		"serverChannelMaxIdleTimeSeconds": cfg.ServerChannelMaxIdleTimeSeconds,
		"defaultThreadPoolNums":           cfg.DefaultThreadPoolNums,
		"registrationWorkers":             ns.server.SlowWorkers(),
		"defaultThreadPoolQueueCapacity":  cfg.DefaultThreadPoolQueueCapacity,
		"unRegisterBrokerQueueCapacity":   cfg.UnRegisterBrokerQueueCapacity,
		"scanNotActiveBrokerInterval":     cfg.ScanNotActiveBrokerInterval,
		"logLevel":                        cfg.LogLevel,
		"acl":                             aclModeWords(cfg),
		"tls":                             tlsModeWords(cfg),
	}).Warn("name server started (start summary, logged at warn so every log level keeps it)")
}
