package admin

import (
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// notControllerMode is Java's remark (trailing space included) for
// GET_BROKER_EPOCH_CACHE on a broker without enableControllerMode.
const notControllerMode = "this request only for controllerMode "

// ServeEpochCache makes the broker answer GET_BROKER_EPOCH_CACHE from cache,
// as a broker in controller mode does. Without it (the route-only broker has
// no controller mode and no commit log) the request gets Java's
// SYSTEM_ERROR. Call it before Register.
func (h *Handlers) ServeEpochCache(cache func() *wire.EpochEntryCache) { h.epochCache = cache }

// GetBrokerEpochCache answers 1007 (Java AdminBrokerProcessor.getBrokerEpochCache).
func (h *Handlers) GetBrokerEpochCache(req *remoting.Command) *remoting.Command {
	if h.epochCache == nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, notControllerMode)
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.Body = h.epochCache().Encode()
	return resp
}
