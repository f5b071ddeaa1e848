package faults

import (
	"fmt"
	"sort"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// callTimeout bounds every request the suite sends.
const callTimeout = 3 * time.Second

// call sends one request over a fresh connection and returns the answer.
func call(addr string, code int32, ext map[string]string, body []byte) (*remoting.Command, error) {
	return nstest.Call(addr, code, ext, body, callTimeout)
}

// brokersOf maps every broker name a NameServer routes to its master's
// address.
func brokersOf(addr string) (map[string]string, error) {
	resp, err := call(addr, remoting.GET_BROKER_CLUSTER_INFO, nil, nil)
	if err != nil {
		return nil, err
	}
	if resp.Code != remoting.SUCCESS {
		return nil, fmt.Errorf("cluster info: code %d %s", resp.Code, resp.Remark)
	}
	info, err := route.DecodeClusterInfo(resp.Body)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for name, group := range info.BrokerAddrTable {
		out[name] = group.BrokerAddrs[0]
	}
	return out, nil
}

// routeOf asks for a topic's route; the code is the answer's.
func routeOf(addr, topic string) (*route.TopicRouteData, int32, error) {
	return nstest.RouteOf(addr, topic, callTimeout)
}

// routeKey is a route reduced to what two NameServers must agree on: each
// queue's broker, queue counts and perm, and each broker's addresses.
func routeKey(data *route.TopicRouteData) string {
	var parts []string
	for _, q := range data.QueueDatas {
		parts = append(parts, fmt.Sprintf("q:%s/%d/%d/%d", q.BrokerName, q.ReadQueueNums, q.WriteQueueNums, q.Perm))
	}
	for _, b := range data.BrokerDatas {
		parts = append(parts, fmt.Sprintf("b:%s/%s/%v", b.Cluster, b.BrokerName, b.BrokerAddrs))
	}
	sort.Strings(parts)
	return fmt.Sprint(parts)
}

// putKV sends PUT_KV_CONFIG and returns the answer's code and remark.
func putKV(addr, namespace, key, value string) (int32, string, error) {
	resp, err := call(addr, remoting.PUT_KV_CONFIG, map[string]string{"namespace": namespace, "key": key, "value": value}, nil)
	if err != nil {
		return -1, "", err
	}
	return resp.Code, resp.Remark, nil
}

// getKV reads one KV value; ok is false when it is not found.
func getKV(addr, namespace, key string) (string, bool, error) {
	resp, err := call(addr, remoting.GET_KV_CONFIG, map[string]string{"namespace": namespace, "key": key}, nil)
	if err != nil {
		return "", false, err
	}
	if resp.Code != remoting.SUCCESS {
		return "", false, nil
	}
	return resp.ExtFields["value"], true, nil
}

// waitFor polls cond every poll until it holds or timeout passes; it
// returns how long that took and whether it held.
func waitFor(timeout, poll time.Duration, cond func() bool) (time.Duration, bool) {
	start := time.Now()
	for {
		if cond() {
			return time.Since(start), true
		}
		if time.Since(start) > timeout {
			return time.Since(start), false
		}
		time.Sleep(poll)
	}
}

// routed says whether the NameServer routes broker name (err counts as no).
func routed(ns *proc, name string) bool {
	brokers, err := brokersOf(ns.Addr)
	return err == nil && brokers[name] != ""
}

// ms formats a duration for the report.
func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }

// repeat runs body, then waits pause, again and again until stop is closed.
func repeat(stop <-chan struct{}, pause time.Duration, body func()) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		body()
		select {
		case <-stop:
			return
		case <-time.After(pause):
		}
	}
}

// msOrNever is ms, or "never" for 0 (not seen).
func msOrNever(d time.Duration) string {
	if d == 0 {
		return "never"
	}
	return ms(d)
}

func itoa(n int) string { return fmt.Sprint(n) }
