package namesrv

import (
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// warnUnreadStore tells the operator when keys that apply only at the next
// start were written to a configStorePath that the next start will not read
// (the server was started without -c, or with configStorePath pointing
// elsewhere): Java behaves the same, silently. The answer stays Java's
// (code 0), so that clients and the recorded exchanges see no difference.
// Rate-limited like every warning a request can cause.
func (ns *NameServer) warnUnreadStore(cfg *config.Config, changed []string) {
	if cfg.StoreReadAtStart() {
		return
	}
	var atNextStart []string
	for _, key := range changed {
		if !config.IsLive(key) {
			atNextStart = append(atNextStart, key)
		}
	}
	if len(atNextStart) == 0 {
		return
	}
	ns.warn(logrus.Fields{"keys": atNextStart, "configStorePath": cfg.ConfigStorePath, "configFile": cfg.ConfigFile()}, nil,
		"these keys apply at the next start, but only if it is started with -c <configStorePath>: "+
			"without that the file written is never read and they never take effect")
}
