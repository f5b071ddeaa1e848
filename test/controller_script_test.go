package test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// ctlStep is one request of the controller script: sent by fake broker
// `from` (its own connection, kept for the whole script, as a broker keeps
// its channel: liveness is tied to it), with raw ext fields as a Java client
// writes them.
type ctlStep struct {
	name string
	from int // fake broker 1..5 (0: a connection of its own, closed after)
	code int32
	ext  map[string]string
	body string
	// closeConn closes fake broker from's connection instead of sending
	// (the controller sees the broker die); the answer notes it.
	closeConn bool
	// until, when set, repeats the request (100 ms apart, 30 s at most)
	// until its answer satisfies it, waits 2 s for retries to settle and
	// keeps the answer sent after that: for what the controller does on its
	// own (an election after a close).
	until func(ctlAnswer) bool
}

// ctlAnswer is what the script keeps of an answer: no opaque, language or
// version (the sender's), everything else as received.
type ctlAnswer struct {
	Step   string            `json:"step"`
	Code   int32             `json:"code"`
	Remark string            `json:"remark,omitempty"`
	Ext    map[string]string `json:"ext,omitempty"`
	Body   string            `json:"body,omitempty"`
	Note   string            `json:"note,omitempty"`
}

const (
	scriptCluster = "c1"
	scriptSet     = "s1"
	// ports nobody listens on: the 1008 notices after each election fail at once
	scriptAddr1 = "127.0.0.1:1"
	scriptAddr2 = "127.0.0.1:2"
)

func hb(id, addr, epoch, offset string) map[string]string {
	return map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "brokerAddr": addr, "brokerId": id,
		"epoch": epoch, "maxOffset": offset, "confirmOffset": offset, "heartbeatTimeoutMills": "60000", "electionPriority": "2147483647"}
}

// controllerScript is a broker set's life over the wire: ids, registration,
// heartbeats, election, the in-sync set, the reads, the admin requests and
// Java's refusals, in the order a Java 5.3.3 broker and mqadmin send them
// (field names and values as theirs).
func controllerScript() []ctlStep {
	id := func(n, code string) map[string]string {
		return map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "appliedBrokerId": n, "registerCheckCode": code}
	}
	next := map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet}
	reg := func(n, addr string) map[string]string {
		return map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "brokerId": n, "brokerAddress": addr, "invokeTime": "1"}
	}
	elect := func(n, designate string) map[string]string {
		return map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "brokerId": n, "designateElect": designate, "invokeTime": "1"}
	}
	alter := func(master, epoch string) map[string]string {
		return map[string]string{"brokerName": scriptSet, "masterBrokerId": master, "masterEpoch": epoch, "invokeTime": "1"}
	}
	replica := map[string]string{"brokerName": scriptSet}
	return append([]ctlStep{
		{name: "metadata", from: 0, code: wire.CodeGetMetadataInfo},
		{name: "next id, empty", from: 1, code: wire.CodeGetNextBrokerID, ext: next},
		{name: "apply id 2 first", from: 1, code: wire.CodeApplyBrokerID, ext: id("2", scriptAddr1+";1")},
		{name: "apply id 1", from: 1, code: wire.CodeApplyBrokerID, ext: id("1", scriptAddr1+";1")},
		{name: "apply id 1 again, same code", from: 1, code: wire.CodeApplyBrokerID, ext: id("1", scriptAddr1+";1")},
		{name: "apply id 1, other code", from: 2, code: wire.CodeApplyBrokerID, ext: id("1", scriptAddr2+";2")},
		{name: "register unknown id 7", from: 1, code: wire.CodeRegisterBroker, ext: reg("7", scriptAddr1)},
		{name: "register 1, no master", from: 1, code: wire.CodeRegisterBroker, ext: reg("1", scriptAddr1)},
		{name: "replica info, no master", from: 1, code: wire.CodeGetReplicaInfo, ext: replica},
		{name: "heartbeat 1", from: 1, code: wire.CodeBrokerHeartbeat, ext: hb("1", scriptAddr1, "0", "0")},
		{name: "elect by broker 1", from: 1, code: wire.CodeElectMaster, ext: elect("1", "false")},
		{name: "elect by broker 1 again", from: 1, code: wire.CodeElectMaster, ext: elect("1", "false")},
		{name: "next id after 1", from: 2, code: wire.CodeGetNextBrokerID, ext: next},
		{name: "apply id 2", from: 2, code: wire.CodeApplyBrokerID, ext: id("2", scriptAddr2+";2")},
		{name: "register 2, master 1", from: 2, code: wire.CodeRegisterBroker, ext: reg("2", scriptAddr2)},
		{name: "heartbeat 2", from: 2, code: wire.CodeBrokerHeartbeat, ext: hb("2", scriptAddr2, "1", "0")},
		{name: "replica info, master 1", from: 2, code: wire.CodeGetReplicaInfo, ext: replica},
		{name: "replica info, unknown set", from: 2, code: wire.CodeGetReplicaInfo, ext: map[string]string{"brokerName": "nosuch"}},
		{name: "alter by a slave", from: 2, code: wire.CodeAlterSyncStateSet, ext: alter("2", "1"), body: `{"syncStateSet":[1,2],"syncStateSetEpoch":1}`},
		{name: "alter, old master epoch", from: 1, code: wire.CodeAlterSyncStateSet, ext: alter("1", "0"), body: `{"syncStateSet":[1,2],"syncStateSetEpoch":1}`},
		{name: "alter, old set epoch", from: 1, code: wire.CodeAlterSyncStateSet, ext: alter("1", "1"), body: `{"syncStateSet":[1,2],"syncStateSetEpoch":0}`},
		{name: "alter, without the master", from: 1, code: wire.CodeAlterSyncStateSet, ext: alter("1", "1"), body: `{"syncStateSet":[2],"syncStateSetEpoch":1}`},
		{name: "alter, unknown id", from: 1, code: wire.CodeAlterSyncStateSet, ext: alter("1", "1"), body: `{"syncStateSet":[1,9],"syncStateSetEpoch":1}`},
		{name: "alter to [1,2]", from: 1, code: wire.CodeAlterSyncStateSet, ext: alter("1", "1"), body: `{"syncStateSet":[1,2],"syncStateSetEpoch":1}`},
		{name: "sync state data", from: 0, code: wire.CodeGetSyncStateData, body: `["s1"]`},
		{name: "sync state data, unknown set", from: 0, code: wire.CodeGetSyncStateData, body: `["nosuch"]`},
		{name: "admin elect 2", from: 0, code: wire.CodeElectMaster, ext: elect("2", "true")},
		{name: "admin elect unknown set", from: 0, code: wire.CodeElectMaster, ext: map[string]string{"clusterName": scriptCluster, "brokerName": "nosuch", "brokerId": "1", "designateElect": "true", "invokeTime": "1"}},
		{name: "admin elect 9", from: 0, code: wire.CodeElectMaster, ext: elect("9", "true")},
		{name: "replica info, master 2", from: 1, code: wire.CodeGetReplicaInfo, ext: replica},
		{name: "register 1, master 2", from: 1, code: wire.CodeRegisterBroker, ext: reg("1", scriptAddr1)},
		{name: "clean a living broker", from: 0, code: wire.CodeCleanBrokerData, ext: map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "brokerControllerIdsToClean": "1", "isCleanLivingBroker": "false", "invokeTime": "1"}},
		{name: "clean unknown set", from: 0, code: wire.CodeCleanBrokerData, ext: map[string]string{"clusterName": scriptCluster, "brokerName": "nosuch", "isCleanLivingBroker": "false", "invokeTime": "1"}},
		{name: "replica info without brokerName", from: 0, code: wire.CodeGetReplicaInfo, ext: map[string]string{}},
		{name: "next id without clusterName", from: 0, code: wire.CodeGetNextBrokerID, ext: map[string]string{"brokerName": scriptSet}},
		{name: "apply id 3 without clusterName", from: 0, code: wire.CodeApplyBrokerID, ext: map[string]string{"brokerName": scriptSet, "appliedBrokerId": "3", "registerCheckCode": "127.0.0.1:3;3"}},
		{name: "register 3 without clusterName", from: 0, code: wire.CodeRegisterBroker, ext: map[string]string{"brokerName": scriptSet, "brokerId": "3", "brokerAddress": "127.0.0.1:3"}},
		{name: "heartbeat without clusterName", from: 0, code: wire.CodeBrokerHeartbeat, ext: map[string]string{"brokerName": scriptSet, "brokerAddr": "127.0.0.1:3", "brokerId": "3"}},
		{name: "heartbeat without brokerAddr", from: 0, code: wire.CodeBrokerHeartbeat, ext: map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "brokerId": "3"}},
		{name: "elect without designateElect", from: 0, code: wire.CodeElectMaster, ext: map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "brokerId": "1"}},
		{name: "elect without clusterName", from: 0, code: wire.CodeElectMaster, ext: map[string]string{"brokerName": scriptSet, "brokerId": "1", "designateElect": "true"}},
		{name: "alter without invokeTime", from: 1, code: wire.CodeAlterSyncStateSet, ext: map[string]string{"brokerName": scriptSet, "masterBrokerId": "2", "masterEpoch": "2"}, body: `{"syncStateSet":[2],"syncStateSetEpoch":2}`},
		{name: "update config", from: 0, code: wire.CodeUpdateControllerConfig, body: "scanInactiveMasterInterval=5000\n"},
		{name: "update config, an unknown key", from: 0, code: wire.CodeUpdateControllerConfig, body: "noSuchControllerKey=1\n"},
		{name: "update config without a body", from: 0, code: wire.CodeUpdateControllerConfig},
		{name: "update config in the black list", from: 0, code: wire.CodeUpdateControllerConfig, body: "configBlackList=x\n"},
		{name: "an unknown code", from: 0, code: 1007},
		{name: "clean living broker 1", from: 0, code: wire.CodeCleanBrokerData, ext: map[string]string{"clusterName": scriptCluster, "brokerName": scriptSet, "brokerControllerIdsToClean": "1", "isCleanLivingBroker": "true", "invokeTime": "1"}},
		{name: "sync state data after clean", from: 0, code: wire.CodeGetSyncStateData, body: `["s1"]`},
	}, electionScript()...)
}

// electionScript is a second set, s2, of three brokers (fake brokers 3-5)
// all in sync: the master's connection closes and the controller elects by
// its policy (same epoch, the higher offset, then the lower
// electionPriority wins); then the new master's closes while no other member
// is in sync: no master, and the epochs its retries leave.
func electionScript() []ctlStep {
	const set = "s2"
	addr := func(n string) string { return "127.0.0.1:1" + n }
	id := func(n string) map[string]string {
		return map[string]string{"clusterName": scriptCluster, "brokerName": set, "appliedBrokerId": n, "registerCheckCode": addr(n) + ";" + n}
	}
	reg := func(n string) map[string]string {
		return map[string]string{"clusterName": scriptCluster, "brokerName": set, "brokerId": n, "brokerAddress": addr(n), "invokeTime": "1"}
	}
	beat := func(n, offset, priority string) map[string]string {
		return map[string]string{"clusterName": scriptCluster, "brokerName": set, "brokerAddr": addr(n), "brokerId": n,
			"epoch": "1", "maxOffset": offset, "confirmOffset": offset, "heartbeatTimeoutMills": "60000", "electionPriority": priority}
	}
	replica := map[string]string{"brokerName": set}
	masterIs := func(want string) func(ctlAnswer) bool {
		return func(a ctlAnswer) bool { return a.Code == 0 && a.Ext["masterBrokerId"] == want }
	}
	return []ctlStep{
		{name: "s2: apply id 1", from: 3, code: wire.CodeApplyBrokerID, ext: id("1")},
		{name: "s2: register 1", from: 3, code: wire.CodeRegisterBroker, ext: reg("1")},
		{name: "s2: heartbeat 1", from: 3, code: wire.CodeBrokerHeartbeat, ext: beat("1", "100", "9")},
		{name: "s2: elect by 1", from: 3, code: wire.CodeElectMaster, ext: map[string]string{"clusterName": scriptCluster, "brokerName": set, "brokerId": "1", "designateElect": "false", "invokeTime": "1"}},
		{name: "s2: apply id 2", from: 4, code: wire.CodeApplyBrokerID, ext: id("2")},
		{name: "s2: register 2", from: 4, code: wire.CodeRegisterBroker, ext: reg("2")},
		{name: "s2: heartbeat 2, offset 200, priority 5", from: 4, code: wire.CodeBrokerHeartbeat, ext: beat("2", "200", "5")},
		{name: "s2: apply id 3", from: 5, code: wire.CodeApplyBrokerID, ext: id("3")},
		{name: "s2: register 3", from: 5, code: wire.CodeRegisterBroker, ext: reg("3")},
		{name: "s2: heartbeat 3, offset 200, priority 1", from: 5, code: wire.CodeBrokerHeartbeat, ext: beat("3", "200", "1")},
		{name: "s2: alter to [1,2,3]", from: 3, code: wire.CodeAlterSyncStateSet, ext: map[string]string{"brokerName": set, "masterBrokerId": "1", "masterEpoch": "1", "invokeTime": "1"}, body: `{"syncStateSet":[1,2,3],"syncStateSetEpoch":1}`},
		{name: "s2: the master's connection closes", from: 3, closeConn: true},
		{name: "s2: replica info, the controller's choice", from: 4, code: wire.CodeGetReplicaInfo, ext: replica, until: func(a ctlAnswer) bool { return !masterIs("1")(a) }},
		{name: "s2: the new master's connection closes", from: 5, closeConn: true},
		{name: "s2: replica info, nobody in sync left", from: 4, code: wire.CodeGetReplicaInfo, ext: replica, until: func(a ctlAnswer) bool { return a.Ext["masterBrokerId"] == "" }},
		{name: "s2: sync state data", from: 0, code: wire.CodeGetSyncStateData, body: `["s2"]`},
	}
}

// runControllerScript sends the script to a fresh controller at addr and
// returns its answers.
func runControllerScript(t *testing.T, addr, group string) []ctlAnswer {
	t.Helper()
	cfg := remoting.ClientConfig{DialTimeout: 3 * time.Second, RequestTimeout: 5 * time.Second}
	brokers := map[int]*remoting.Client{}
	defer func() {
		for _, c := range brokers {
			c.Close()
		}
	}()
	send := func(s ctlStep) ctlAnswer {
		c := brokers[s.from]
		if c == nil {
			c = remoting.NewClient(addr, cfg)
			if s.from != 0 {
				brokers[s.from] = c
			}
		}
		var body []byte
		if s.body != "" {
			body = []byte(s.body)
		}
		ext := s.ext
		if ext == nil {
			ext = map[string]string{}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		resp, err := c.Invoke(ctx, remoting.NewRequest(s.code, ext, body))
		cancel()
		if s.from == 0 {
			c.Close()
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		a := ctlAnswer{Step: s.name, Code: resp.Code, Remark: resp.Remark, Ext: resp.ExtFields, Body: string(resp.Body)}
		if s.code == wire.CodeGetMetadataInfo { // the node's own address and group: the only parts that differ by deployment
			for k, v := range a.Ext {
				a.Ext[k] = strings.ReplaceAll(strings.ReplaceAll(v, addr, "ADDR"), group, "GROUP")
			}
		}
		return a
	}
	var out []ctlAnswer
	for _, s := range controllerScript() {
		if s.closeConn {
			if c := brokers[s.from]; c != nil {
				c.Close()
				delete(brokers, s.from)
			}
			out = append(out, ctlAnswer{Step: s.name, Note: "connection closed by the script"})
			continue
		}
		a := send(s)
		if s.until != nil {
			deadline := time.Now().Add(30 * time.Second)
			for !s.until(a) {
				if time.Now().After(deadline) {
					t.Fatalf("%s: not within 30s, last answer %+v", s.name, a)
				}
				time.Sleep(100 * time.Millisecond)
				a = send(s)
			}
			time.Sleep(2 * time.Second)
			a = send(s)
		}
		out = append(out, a)
	}
	return out
}

// diffAnswers names every step whose answer differs.
func diffAnswers(want, got []ctlAnswer) []string {
	var diffs []string
	for i := range max(len(want), len(got)) {
		if i >= len(want) || i >= len(got) {
			diffs = append(diffs, fmt.Sprintf("step %d: only one side answered", i))
			continue
		}
		w, _ := json.Marshal(want[i])
		g, _ := json.Marshal(got[i])
		if string(w) != string(g) {
			diffs = append(diffs, fmt.Sprintf("step %q:\n  java %s\n  ours %s", want[i].Step, w, g))
		}
	}
	return diffs
}

// javaScriptFixture holds the Java 5.3.3 DLedger controller's answers to
// controllerScript (recorded by TestControllerScriptAgainstJava with
// JAVA5_RECORD=1).
const javaScriptFixture = "testdata/controller-java-5.3.3/script.json"

// ourScriptDeviations are the steps where we answer otherwise on purpose
// (docs/compatibility.md): a header field Java cannot do without is
// refused naming it, where Java throws a NullPointerException; a heartbeat
// without the names its table entry is keyed by is refused naming the
// field, and an update of a key that is not changeable online (here an
// unknown one) is refused naming it, where Java answers success (issue 35).
var ourScriptDeviations = map[string]ctlAnswer{
	"replica info without brokerName": {Code: 1, Remark: "the custom field <brokerName> is null"},
	"heartbeat without clusterName":   {Code: 1, Remark: "the field <clusterName> is missing or empty"},
	"heartbeat without brokerAddr":    {Code: 1, Remark: "the field <brokerAddr> is missing or empty"},
	"update config, an unknown key":   {Code: 1, Remark: "controller config update refused: unknown controller setting: noSuchControllerKey"},
}

func loadJavaScriptAnswers(t *testing.T) []ctlAnswer {
	t.Helper()
	raw, err := os.ReadFile(javaScriptFixture)
	if err != nil {
		t.Fatal(err)
	}
	var want []ctlAnswer
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("%s: %v", javaScriptFixture, err)
	}
	return want
}

// Our controller answers the script as Java's did, field for field (codes,
// remarks, ext fields, bodies), but for the deviations listed above.
func TestControllerAnswersTheScriptAsJavaDid(t *testing.T) {
	want := loadJavaScriptAnswers(t)
	for i, a := range want {
		if d, ok := ourScriptDeviations[a.Step]; ok {
			d.Step = a.Step
			want[i] = d
		}
	}
	if len(want) != len(controllerScript()) {
		t.Fatalf("%s has %d answers, the script %d steps: record it again", javaScriptFixture, len(want), len(controllerScript()))
	}
	g := startControllerGroup(t, 1)
	g.leader(t, 20*time.Second)
	got := runControllerScript(t, g.addrs[0], "e2e")
	if diffs := diffAnswers(want, got); len(diffs) > 0 {
		t.Fatalf("%d answers differ from Java's:\n%s", len(diffs), strings.Join(diffs, "\n"))
	}
}
