package namesrv

import (
	"errors"
	"slices"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// updateNamesrvConfig applies a properties body (UPDATE_NAMESRV_CONFIG, 318)
// with the Java black list; the settings that are live take effect at once.
// A key no setting has, or a value that does not parse or is out of range,
// refuses the whole request (code 1 naming the key).
func (ns *NameServer) updateNamesrvConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	if len(req.Body) == 0 {
		return success(req)
	}
	props, err := javaprops.Parse(req.Body)
	if err != nil {
		return systemError(req, "string2Properties error")
	}
	// The effects run inside the update, in the order updates are published:
	// two concurrent updates cannot leave the route manager on the older one.
	_, err = ns.settings.UpdateThen(props, func(cfg *config.Config, changed []string) {
		ns.routes.SetConfig(routeConfig(cfg))
		// Logged before a new level applies, so the change itself is seen.
		ns.log.WithFields(logrus.Fields{"changed": changed, "request": config.WithoutSecrets(props)}).Info("name server config updated")
		if slices.Contains(changed, "logLevel") {
			if level, err := logrus.ParseLevel(cfg.LogLevel); err == nil {
				ns.log.Logger.SetLevel(level)
			}
		}
		ns.warnUnreadStore(cfg, changed)
	})
	switch {
	case errors.Is(err, config.ErrBlackListed):
		ns.obs.metrics.ConfigUpdate(metrics.ResultRefused)
		return remoting.NewResponse(req, remoting.NO_PERMISSION, "Can not update config in black list.")
	case errors.Is(err, config.ErrProtected):
		ns.obs.metrics.ConfigUpdate(metrics.ResultRefused)
		ns.warn(nil, err, "update name server config refused")
		return remoting.NewResponse(req, remoting.NO_PERMISSION, err.Error())
	case err != nil:
		ns.obs.metrics.ConfigUpdate(metrics.ResultError)
		ns.warn(nil, err, "update name server config refused, nothing applied")
		return systemError(req, err.Error()+"; nothing was applied")
	}
	ns.obs.metrics.ConfigUpdate(metrics.ResultSuccess)
	return success(req)
}

// getNamesrvConfig returns every setting as sorted key=value lines (319).
func (ns *NameServer) getNamesrvConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	resp := success(req)
	if text := ns.settings.Properties(); len(text) > 0 {
		resp.Body = text
	}
	return resp
}
