package namesrv

import (
	"errors"
	"fmt"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
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
	// Sizes, not values, are logged: a value can be large, and it is the
	// operator's data, not the log's.
	fields := logrus.Fields{"namespace": h.Namespace, "key": h.Key, "valueBytes": len(*h.Value)}
	err := ns.kv.Put(h.Namespace, h.Key, *h.Value)
	ns.countKVWrite("put", err)
	if err != nil {
		return ns.kvWriteFailed(req, "put kv config", fields, err)
	}
	ns.log.WithFields(fields).Info("kv config put")
	return success(req)
}

// countKVWrite counts a KV change: acknowledged, refused at a store limit
// (nothing written), or failed to persist.
func (ns *NameServer) countKVWrite(op string, err error) {
	if errors.Is(err, kvconfig.ErrOverLimit) {
		ns.obs.metrics.KVRefused()
		return
	}
	ns.obs.metrics.KVWrite(op, err)
}

// kvWriteFailed logs and answers a KV write that did not succeed: code 1 with
// the reason. A write refused for a limit changed nothing and is a client
// error (WARN). One whose directory fsync failed after the rename is in
// place and served, but its durability is unknown: the answer says exactly
// that, still as code 1, because an acknowledgement promises the value is on
// disk; repeating the request is safe.
func (ns *NameServer) kvWriteFailed(req *remoting.Command, op string, fields logrus.Fields, err error) *remoting.Command {
	switch {
	case errors.Is(err, kvconfig.ErrOverLimit):
		ns.warn(fields, err, op+": refused, over a KV store limit")
	case errors.Is(err, atomicfile.ErrNotDurable):
		ns.warnings.Log(ns.log, logrus.ErrorLevel, fields, err, op+": applied and served, but the directory fsync failed: durability unknown")
		return systemError(req, fmt.Sprintf("%s: applied and served, but not known to be durable (retry is safe): %v", op, err))
	default:
		ns.warnings.Log(ns.log, logrus.ErrorLevel, fields, err, op+": not applied")
	}
	return systemError(req, fmt.Sprintf("%s: %v", op, err))
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
	ns.countKVWrite("delete", err)
	if err != nil {
		return ns.kvWriteFailed(req, "delete kv config", logrus.Fields{"namespace": h.Namespace, "key": h.Key}, err)
	}
	ns.log.WithFields(logrus.Fields{"namespace": h.Namespace, "key": h.Key}).Info("kv config deleted")
	return success(req)
}

// getKVListByNamespace returns a whole namespace as a KVTable (219). It runs
// on the list pool: a namespace can be 8 MB, whose encoding would hold up
// the event loop; the body is encoded once per change of the namespace
// (kvconfig.Store.KVTableJSON), and quickKVList answers from it on the loop
// until the next change.
func (ns *NameServer) getKVListByNamespace(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h namespaceRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	body, ok := ns.kv.KVTableJSON(h.Namespace)
	return kvListAnswer(req, h.Namespace, body, ok)
}

// quickKVList is getKVListByNamespace for the event loop (remoting.TryFirst):
// it answers a missing namespace and one whose body is already encoded, and
// returns nil, leaving the encoding to the pool, for any other.
func (ns *NameServer) quickKVList(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h namespaceRequestHeader
	if remoting.DecodeHeader(req, &h) != nil {
		return nil
	}
	body, found, cached := ns.kv.CachedKVTableJSON(h.Namespace)
	if !cached {
		return nil
	}
	return kvListAnswer(req, h.Namespace, body, found)
}

func kvListAnswer(req *remoting.Command, namespace string, body []byte, found bool) *remoting.Command {
	if !found {
		return remoting.NewResponse(req, remoting.QUERY_NOT_FOUND, "No config item, Namespace: "+namespace)
	}
	resp := success(req)
	resp.Body = body
	return resp
}
