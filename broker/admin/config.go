package admin

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// MaxUpdateConfigBody bounds an UPDATE_BROKER_CONFIG body: a broker.conf of
// every key this broker has is about 2 KiB, so anything past 64 KiB is not
// a config update and is refused before it is parsed.
const MaxUpdateConfigBody = 64 << 10

// ErrBlackListed marks an update naming a key of Java's black list
// (brokerConfigPath, rocketmqHome, configBlackList): answered NO_PERMISSION
// with Java's remark.
var ErrBlackListed = errors.New("key in the config black list")

// blackListRemark is Java's remark for a black-listed key.
const blackListRemark = "Can not update config in black list."

// ConfigSource is the broker's settings as GET_BROKER_CONFIG shows them and
// UPDATE_BROKER_CONFIG changes them.
type ConfigSource interface {
	// Properties returns the effective settings (never a secret) and their
	// version, bumped by every applied update.
	Properties() (map[string]string, route.DataVersion)
	// Update applies every key of props or none; a refusal says which key
	// and why (ErrBlackListed for the black list).
	Update(props map[string]string) error
}

// GetBrokerConfigResponseHeader is the header of the GET_BROKER_CONFIG
// answer (Java GetBrokerConfigResponseHeader): the settings' DataVersion as JSON.
type GetBrokerConfigResponseHeader struct {
	Version string `rmq:"version,required"`
}

// configHandlers answers GET_BROKER_CONFIG (26) and UPDATE_BROKER_CONFIG (25).
type configHandlers struct {
	src      ConfigSource
	log      *logrus.Entry
	warnings ratelog.Set // updates and refusals are a peer's doing
}

// RegisterConfig attaches GET_BROKER_CONFIG and UPDATE_BROKER_CONFIG for
// src. An update runs off the event loop: it may write topics.json.
func RegisterConfig(srv portguard.Registrar, src ConfigSource, log *logrus.Entry) {
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	h := &configHandlers{src: src, log: log}
	srv.Handle(remoting.GET_BROKER_CONFIG, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command { return h.get(req) })
	srv.Handle(remoting.UPDATE_BROKER_CONFIG, func(c *remoting.Conn, req *remoting.Command) *remoting.Command {
		return h.update(c.RemoteAddr(), req)
	}, remoting.Slow())
}

// get answers the settings as sorted key=value lines, as Java's
// Configuration.getAllConfigsFormatString, and their version in the header.
func (h *configHandlers) get(req *remoting.Command) *remoting.Command {
	props, version := h.src.Properties()
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.ExtFields = remoting.EncodeHeader(GetBrokerConfigResponseHeader{Version: string(route.EncodeDataVersion(nil, version))})
	resp.Body = javaprops.Format(props)
	return resp
}

// update applies a properties body (Java AdminBrokerProcessor.updateBrokerConfig).
// Unlike Java, which takes any key it has and ignores the rest, a key this
// broker cannot change while running, an unknown key or a bad value refuses
// the whole request (code 1 naming the key); an empty body is a success.
func (h *configHandlers) update(caller string, req *remoting.Command) *remoting.Command {
	if len(req.Body) == 0 {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	}
	if len(req.Body) > MaxUpdateConfigBody {
		h.warnings.Warn(h.log, logrus.Fields{"caller": caller, "bytes": len(req.Body)}, nil, "update broker config refused: body too large")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR,
			fmt.Sprintf("update body of %d bytes is over the %d-byte limit; nothing was applied", len(req.Body), MaxUpdateConfigBody))
	}
	props, err := javaprops.Parse(req.Body)
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, "string2Properties error")
	}
	keys := slices.Sorted(maps.Keys(props))
	if err := h.src.Update(props); err != nil {
		h.warnings.Warn(h.log, logrus.Fields{"caller": caller, "keys": keys}, err, "update broker config refused, nothing applied")
		if errors.Is(err, ErrBlackListed) {
			return remoting.NewResponse(req, remoting.NO_PERMISSION, blackListRemark)
		}
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	// Rate-limited too: with aclEnable=false (the default) anyone reaching
	// the port can send updates; the held-back count goes with the next line.
	h.warnings.Log(h.log, logrus.InfoLevel, logrus.Fields{"caller": caller, "keys": keys}, nil, "broker config updated")
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}
