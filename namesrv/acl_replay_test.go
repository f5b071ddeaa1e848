package namesrv

import (
	"maps"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// TestCapturedSignatureReplays checks the limits of the ACL 1.0 signature
// the README's security section states: it covers the ext fields' values
// in key order and the body, but neither the request code nor where one
// field ends and the next begins, and it has no nonce or time. So a
// request captured on the wire is accepted again, under another code that
// takes the same fields, and with its values cut at other places. This is
// the Java scheme (AclClientRPCHook), kept for compatibility; TLS keeps a
// request from being captured. The test fails the day the signature
// starts covering the code or the boundaries: then the README must change.
func TestCapturedSignatureReplays(t *testing.T) {
	s := aclServer(t)
	admin := aclsign.Credentials{AccessKey: "adminKey1", SecretKey: "adminSecret1"}
	signing := remoting.NewClient(s.addr(), remoting.ClientConfig{Sign: aclsign.Signer(admin)})
	t.Cleanup(func() { _ = signing.Close() })
	nstest.Register(t, signing, nstest.BrokerB)
	put := func(namespace, key string) {
		nstest.MustCode(t, nstest.Invoke(t, signing, remoting.NewRequest(remoting.PUT_KV_CONFIG,
			map[string]string{"namespace": namespace, "key": key, "value": "v"}, nil)), remoting.SUCCESS)
	}
	put("ns", "k")
	put("s", "kn")

	// What an eavesdropper holds: the ext fields of signed requests.
	captured := func(ext map[string]string) map[string]string {
		out := maps.Clone(ext)
		aclsign.Sign(out, nil, admin)
		return out
	}
	replayer := nstest.NewClient(t, s.addr()) // signs nothing: sends what it captured
	replay := func(code int32, ext map[string]string) *remoting.Command {
		return nstest.Invoke(t, replayer, remoting.NewRequest(code, maps.Clone(ext), nil))
	}

	// The same request again: admitted.
	read := captured(map[string]string{"namespace": "ns", "key": "k"})
	nstest.MustCode(t, replay(remoting.GET_KV_CONFIG, read), remoting.SUCCESS)
	// A read replayed as a delete: the key is gone.
	nstest.MustCode(t, replay(remoting.DELETE_KV_CONFIG, read), remoting.SUCCESS)
	nstest.MustCode(t, replay(remoting.GET_KV_CONFIG, read), remoting.QUERY_NOT_FOUND)

	// Shifted fields: "kn"+"s" signs as "k"+"ns" (values in key order).
	shifted := maps.Clone(read)
	shifted["namespace"], shifted["key"] = "s", "kn"
	nstest.MustCode(t, replay(remoting.DELETE_KV_CONFIG, shifted), remoting.SUCCESS)
	if resp := replay(remoting.GET_KV_CONFIG, shifted); resp.Code != remoting.QUERY_NOT_FOUND {
		t.Fatalf("s/kn after the shifted replay: code %d, want it deleted", resp.Code)
	}

	// ADD_WRITE_PERM_OF_BROKER replayed as WIPE_WRITE_PERM_OF_BROKER drains.
	add := captured(map[string]string{"brokerName": nstest.BrokerB.Name})
	nstest.MustCode(t, replay(remoting.ADD_WRITE_PERM_OF_BROKER, add), remoting.SUCCESS)
	wipe := replay(remoting.WIPE_WRITE_PERM_OF_BROKER, add)
	nstest.MustCode(t, wipe, remoting.SUCCESS)
	if wipe.ExtFields["wipeTopicCount"] == "0" || wipe.ExtFields["wipeTopicCount"] == "" {
		t.Fatalf("the replayed wipe drained nothing: %v", wipe.ExtFields)
	}

	// A broker's data version query (its heartbeat, which carries the same
	// header fields as UNREGISTER_BROKER, and a body) cannot be replayed as
	// its unregistration: without the body it does not verify, with it the
	// body is refused before the signature is checked (bodyCodes).
	version := route.EncodeDataVersion(nil, route.DataVersion{Counter: 1, Timestamp: 1})
	heartbeat := maps.Clone(nstest.BrokerB.Identity())
	aclsign.Sign(heartbeat, version, admin)
	nstest.MustCode(t, nstest.Invoke(t, replayer, remoting.NewRequest(remoting.QUERY_DATA_VERSION, maps.Clone(heartbeat), version)), remoting.SUCCESS)
	nstest.MustCode(t, replay(remoting.UNREGISTER_BROKER, heartbeat), remoting.NO_PERMISSION)
	mustRefuse(t, nstest.Invoke(t, replayer, remoting.NewRequest(remoting.UNREGISTER_BROKER, maps.Clone(heartbeat), version)), "takes no body")
	if resp := nstest.RouteQuery(t, replayer, nstest.BrokerB.TopicNames()[0], remoting.CurrentVersion); resp.Code != remoting.SUCCESS {
		t.Fatalf("the broker is gone after the replays: code %d", resp.Code)
	}

	// What the signature does cover: a changed value that is not a shift.
	changed := maps.Clone(read)
	changed["key"] = "other"
	nstest.MustCode(t, replay(remoting.DELETE_KV_CONFIG, changed), remoting.NO_PERMISSION)
}
