package namesrv

import (
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// putKVConfig stores one value (PUT_KV_CONFIG, 100). The answer is sent after
// the file is on disk, so an acknowledged value survives a crash.
func (ns *NameServer) putKVConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h putKVConfigRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	if h.Namespace == "" || h.Key == "" {
		return systemError(req, "namespace or key is null")
	}
	if h.Value == nil {
		// Java stores a null that reads as "not found" and vanishes at restart
		// (quirk Q20); we refuse instead.
		return systemError(req, "value is null: PUT_KV_CONFIG needs namespace, key and value")
	}
	err := ns.kv.Put(h.Namespace, h.Key, *h.Value)
	ns.obs.metrics.KVWrite("put", err)
	if err != nil {
		ns.log.WithError(err).WithFields(logrus.Fields{"namespace": h.Namespace, "key": h.Key}).Error("put kv config")
		return systemError(req, fmt.Sprintf("put kv config: %v", err))
	}
	ns.log.WithFields(logrus.Fields{"namespace": h.Namespace, "key": h.Key, "value": *h.Value}).Info("kv config put")
	return success(req)
}

// getKVConfig reads one value (GET_KV_CONFIG, 101).
func (ns *NameServer) getKVConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h kvConfigRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	value, ok := ns.kv.Get(h.Namespace, h.Key)
	if !ok {
		resp := remoting.NewResponse(req, remoting.QUERY_NOT_FOUND,
			fmt.Sprintf("No config item, Namespace: %s Key: %s", h.Namespace, h.Key))
		resp.ExtFields = map[string]string{}
		return resp
	}
	return withExt(success(req), &getKVConfigResponseHeader{Value: value})
}

// deleteKVConfig removes one value (DELETE_KV_CONFIG, 102); deleting a missing
// key still answers 0, and an emptied namespace stays visible (quirk Q21).
func (ns *NameServer) deleteKVConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h kvConfigRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	err := ns.kv.Delete(h.Namespace, h.Key)
	ns.obs.metrics.KVWrite("delete", err)
	if err != nil {
		ns.log.WithError(err).WithFields(logrus.Fields{"namespace": h.Namespace, "key": h.Key}).Error("delete kv config")
		return systemError(req, fmt.Sprintf("delete kv config: %v", err))
	}
	ns.log.WithFields(logrus.Fields{"namespace": h.Namespace, "key": h.Key}).Info("kv config deleted")
	return success(req)
}

// getKVListByNamespace returns a whole namespace as a KVTable (219).
func (ns *NameServer) getKVListByNamespace(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h namespaceRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	body, ok := ns.kv.KVTableJSON(h.Namespace)
	if !ok {
		return remoting.NewResponse(req, remoting.QUERY_NOT_FOUND, "No config item, Namespace: "+h.Namespace)
	}
	resp := success(req)
	resp.Body = body
	return resp
}
