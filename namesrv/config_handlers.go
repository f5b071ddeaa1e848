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
func (ns *NameServer) updateNamesrvConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	if len(req.Body) == 0 {
		return success(req)
	}
	props, err := javaprops.Parse(req.Body)
	if err != nil {
		return systemError(req, "string2Properties error")
	}
	changed, err := ns.settings.Update(props)
	switch {
	case errors.Is(err, config.ErrBlackListed):
		ns.obs.metrics.ConfigUpdate(metrics.ResultRefused)
		return remoting.NewResponse(req, remoting.NO_PERMISSION, "Can not update config in black list.")
	case err != nil:
		ns.obs.metrics.ConfigUpdate(metrics.ResultError)
		ns.log.WithError(err).Error("update name server config")
		return systemError(req, "update config: "+err.Error())
	}
	ns.obs.metrics.ConfigUpdate(metrics.ResultSuccess)
	cfg := ns.settings.Get()
	ns.routes.SetConfig(routeConfig(cfg))
	if slices.Contains(changed, "logLevel") {
		if level, err := logrus.ParseLevel(cfg.LogLevel); err == nil {
			ns.log.Logger.SetLevel(level)
		}
	}
	ns.log.WithFields(logrus.Fields{"changed": changed, "request": props}).Info("name server config updated")
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
