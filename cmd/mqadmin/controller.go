package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The controller commands of Java's mqadmin (tools/.../command/controller
// and ha), with Java's options and output; each asks the given controller's
// 1005 for the leader first, as Java's admin does, and -json prints the
// answer as JSON.
var controllerCommands = []command{
	{name: "getControllerMetaData", desc: "Get controller cluster's metadata.", className: "GetControllerMetaDataSubCommand",
		read: true, run: runGetControllerMetaData, opts: []option{
			opt("a", "controllerAddress", true, true, "the address of controller"),
		}},
	{name: "getSyncStateSet", desc: "Fetch syncStateSet for target brokers.", className: "GetSyncStateSetSubCommand",
		read: true, run: runGetSyncStateSet, opts: []option{
			opt("a", "controllerAddress", true, true, "the address of controller"),
			opt("c", "clusterName", true, false, "which cluster"),
			opt("b", "brokerName", true, false, "which broker to fetch"),
			opt("i", "interval", true, false, "the interval(second) of get info"),
		}},
	{name: "electMaster", desc: "Re-elect the specified broker as master.", className: "ReElectMasterSubCommand",
		run: runElectMaster, opts: []option{
			opt("a", "controllerAddress", true, true, "The address of controller"),
			opt("b", "brokerId", true, true, "The id of the broker which requires to become master"),
			opt("bn", "brokerName", true, true, "The broker name of the replicas that require to be manipulated"),
			opt("c", "clusterName", true, true, "the clusterName of broker"),
		}},
	{name: "getControllerConfig", desc: "Get controller config.", className: "GetControllerConfigSubCommand",
		read: true, run: runGetControllerConfig, opts: []option{
			opt("a", "controllerAddress", true, true, "Controller address list, eg: 192.168.0.1:9878;192.168.0.2:9878"),
		}},
	{name: "updateControllerConfig", desc: "Update controller config.", className: "UpdateControllerConfigSubCommand",
		run: runUpdateControllerConfig, opts: []option{
			opt("a", "controllerAddress", true, true, "Controller address list, eg: 192.168.0.1:9878;192.168.0.2:9878"),
			opt("k", "key", true, true, "config key"),
			opt("v", "value", true, true, "config value"),
		}},
	{name: "cleanBrokerMetadata", desc: "Clean metadata of broker on controller.", className: "CleanControllerBrokerMetaSubCommand",
		run: runCleanBrokerMetadata, opts: []option{
			opt("a", "controllerAddress", true, true, "The address of controller"),
			opt("b", "brokerControllerIdsToClean", true, false, "The brokerController id list which requires to clean metadata. eg: 1;2;3, means that clean broker-1, broker-2 and broker-3"),
			opt("bn", "brokerName", true, true, "The broker name of the replicas that require to be manipulated"),
			opt("c", "clusterName", true, false, "The clusterName of broker"),
			opt("l", "cleanLivingBroker", false, false, "Whether clean up living brokers,default value is false"),
		}},
}

// controllerList splits -a's ';' list.
func controllerList(e *env) []string { return splitAddrList(e.args.get("a")) }

// controllerConfigs are the controllers' settings commands: a changed key
// waits for a restart by the controller's own rule.
var controllerConfigs = configServers{what: "controllers", getCode: wire.CodeGetControllerConfig, updateCode: wire.CodeUpdateControllerConfig,
	updated: "update controller config success!", atRestart: func(key string, _ configView) bool { return config.AppliesAtRestart(key) }}

func runGetControllerConfig(e *env) error { return getConfigs(e, controllerList(e), controllerConfigs) }

func runUpdateControllerConfig(e *env) error {
	return updateConfigs(e, controllerList(e), controllerConfigs)
}

func runCleanBrokerMetadata(e *env) error {
	name, cluster, ids := e.args.get("bn"), e.args.get("c"), e.args.get("b")
	for _, id := range strings.Split(ids, ";") {
		if _, err := strconv.ParseInt(id, 10, 64); id != "" && err != nil {
			return fmt.Errorf("please set the option <brokerControllerIdsToClean> according to the format: %w", err)
		}
	}
	living := e.args.has("l")
	if !living && cluster == "" {
		return fmt.Errorf("cleanLivingBroker option is false, clusterName option can not be empty.")
	}
	leader, err := controllerLeader(e, e.args.get("a"))
	if err != nil {
		return err
	}
	req := wire.CleanBrokerDataRequest{ClusterName: cluster, BrokerName: name, BrokerControllerIdsToClean: ids, IsCleanLivingBroker: living}
	if _, err := e.client.invoke(leader, wire.CodeCleanBrokerData, remoting.EncodeHeader(&req), nil); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.out, "clear broker %s metadata from controller success! \n", name)
	return err
}

func init() { commands = append(commands, controllerCommands...) }

func controllerMetaData(e *env, addr string) (*wire.GetMetaDataResponse, error) {
	resp, err := e.client.invoke(addr, wire.CodeGetMetadataInfo, nil, nil)
	if err != nil {
		return nil, err
	}
	var md wire.GetMetaDataResponse
	if err := remoting.DecodeHeader(resp, &md); err != nil {
		return nil, fmt.Errorf("controller metadata from %s: %w", addr, err)
	}
	return &md, nil
}

// controllerLeader is the leader's address as the first controller of the
// -a list that names one says. Java asks the one address it is given; a list
// is asked in order, so a dead or leaderless first controller does not stop
// the command.
func controllerLeader(e *env, list string) (string, error) {
	addrs := splitAddrList(list)
	if len(addrs) == 0 {
		return "", errNoAddress
	}
	var errs []error
	for _, addr := range addrs {
		md, err := controllerMetaData(e, addr)
		if err == nil && md.ControllerLeaderAddress != "" {
			return md.ControllerLeaderAddress, nil
		}
		if err == nil {
			err = fmt.Errorf("the controller %s knows no leader", addr)
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

// runGetControllerMetaData prints Java's block for the controller of -a;
// with a list, each controller's under a ====addr==== line (JSON: address
// -> metadata), asked with askEach.
func runGetControllerMetaData(e *env) error {
	list := controllerList(e)
	if len(list) == 0 {
		return errNoAddress
	}
	mds := map[string]*wire.GetMetaDataResponse{}
	asked := askEach(e, list, "controllers", func(addr string) error {
		md, err := controllerMetaData(e, addr)
		mds[addr] = md
		return err
	})
	if !someAnswered(asked) {
		return asked
	}
	if len(list) == 1 {
		if e.json {
			return e.printJSON(mds[list[0]])
		}
		_, err := fmt.Fprint(e.out, formatControllerMetaData(mds[list[0]]))
		return err
	}
	if e.json {
		return firstFailure(asked, e.printJSON(mds))
	}
	for _, addr := range list {
		if md := mds[addr]; md != nil {
			fmt.Fprintf(e.out, "============%s============%s", addr, formatControllerMetaData(md))
		}
	}
	return asked
}

// formatControllerMetaData is Java's getControllerMetaData block.
func formatControllerMetaData(md *wire.GetMetaDataResponse) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n#ControllerGroup\t%s\n#ControllerLeaderId\t%s\n#ControllerLeaderAddress\t%s", md.Group,
		javaNull(md.ControllerLeaderID), javaNull(md.ControllerLeaderAddress))
	for _, peer := range strings.Split(md.Peers, ";") {
		if peer != "" {
			fmt.Fprintf(&b, "\n#Peer:\t%s", peer)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// javaNull prints an absent string as Java's %s prints null.
func javaNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// replicasInfo is 1006's answer as JSON reads it.
type replicasInfo struct {
	ReplicasInfoTable map[string]struct {
		InSyncReplicas    []replicaIdentity `json:"inSyncReplicas"`
		NotInSyncReplicas []replicaIdentity `json:"notInSyncReplicas"`
		MasterAddress     *string           `json:"masterAddress"`
		MasterBrokerID    *int64            `json:"masterBrokerId"`
		MasterEpoch       int32             `json:"masterEpoch"`
		SyncStateSetEpoch int32             `json:"syncStateSetEpoch"`
	} `json:"replicasInfoTable"`
}

type replicaIdentity struct {
	BrokerName    string `json:"brokerName"`
	BrokerID      int64  `json:"brokerId"`
	BrokerAddress string `json:"brokerAddress"`
	Alive         bool   `json:"alive"`
}

// String is Java's ReplicaIdentity.toString.
func (r replicaIdentity) String() string {
	return fmt.Sprintf("ReplicaIdentity{brokerName='%s', brokerId=%d, brokerAddress='%s', alive=%t}", r.BrokerName, r.BrokerID,
		r.BrokerAddress, r.Alive)
}

func runGetSyncStateSet(e *env) error {
	if !e.args.has("b") && !e.args.has("c") {
		return errUsage
	}
	return repeatEvery(e, func() error { return getSyncStateSetOnce(e) })
}

func getSyncStateSetOnce(e *env) error {
	names := []string{e.args.get("b")}
	if !e.args.has("b") {
		info, err := e.client.clusterInfo()
		if err != nil {
			return err
		}
		var ok bool
		if names, ok = info.ClusterAddrTable[e.args.get("c")]; !ok {
			return errClusterNotFound(e.args.get("c"))
		}
	}
	if len(names) == 0 {
		return nil
	}
	leader, err := controllerLeader(e, e.args.get("a")) // Java: the first of the list only
	if err != nil {
		return err
	}
	body, _ := json.Marshal(names)
	resp, err := e.client.invoke(leader, wire.CodeGetSyncStateData, nil, body)
	if err != nil {
		return err
	}
	var info replicasInfo
	if err := json.Unmarshal(resp.Body, &info); err != nil {
		return fmt.Errorf("sync state data from %s: %w", leader, err)
	}
	// The controller leaves out the sets it does not know: each is a
	// failure of its own, as a server that did not answer.
	unknown := askEach(e, names, "broker sets", func(name string) error {
		if _, ok := info.ReplicasInfoTable[name]; !ok {
			return fmt.Errorf("broker set %s is not known to the controller %s (a typo, or a set not in controller mode)", name, leader)
		}
		return nil
	})
	if !someAnswered(unknown) {
		return unknown
	}
	if e.json {
		return firstFailure(unknown, e.printJSON(info))
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(info.ReplicasInfoTable)) {
		r := info.ReplicasInfoTable[name]
		master := "null"
		if r.MasterBrokerID != nil {
			master = strconv.FormatInt(*r.MasterBrokerID, 10)
		}
		addr := "null"
		if r.MasterAddress != nil {
			addr = *r.MasterAddress
		}
		fmt.Fprintf(&b, "\n#brokerName\t%s\n#MasterBrokerId\t%s\n#MasterAddr\t%s\n#MasterEpoch\t%d\n#SyncStateSetEpoch\t%d\n#SyncStateSetNums\t%d\n",
			name, master, addr, r.MasterEpoch, r.SyncStateSetEpoch, len(r.InSyncReplicas))
		for _, m := range r.InSyncReplicas {
			fmt.Fprintf(&b, "\nInSyncReplica:\t%s\n", m)
		}
		for _, m := range r.NotInSyncReplicas {
			fmt.Fprintf(&b, "\nNotInSyncReplica:\t%s\n", m)
		}
	}
	_, err = fmt.Fprint(e.out, b.String())
	return firstFailure(unknown, err)
}

func runElectMaster(e *env) error {
	id, err := strconv.ParseInt(e.args.get("b"), 10, 64)
	if err != nil {
		return fmt.Errorf("brokerId %q: %w", e.args.get("b"), err)
	}
	leader, err := controllerLeader(e, e.args.get("a"))
	if err != nil {
		return err
	}
	cluster, name := e.args.get("c"), e.args.get("bn")
	req := wire.ElectMasterRequest{ClusterName: cluster, BrokerName: name, BrokerID: id, DesignateElect: true}
	resp, err := e.client.invoke(leader, wire.CodeElectMaster, remoting.EncodeHeader(&req), nil)
	if err != nil {
		return err
	}
	var h wire.ElectMasterResponse
	if err := remoting.DecodeHeader(resp, &h); err != nil {
		return fmt.Errorf("elect master answer from %s: %w", leader, err)
	}
	str := func(p *int32) string {
		if p == nil {
			return "null"
		}
		return strconv.Itoa(int(*p))
	}
	addr := "null"
	if h.MasterAddress != nil {
		addr = *h.MasterAddress
	}
	_, err = fmt.Fprintf(e.out, "\n#ClusterName\t%s\n#BrokerName\t%s\n#BrokerMasterAddr\t%s\n#MasterEpoch\t%s\n#SyncStateSetEpoch\t%s\n",
		cluster, name, addr, str(h.MasterEpoch), str(h.SyncStateSetEpoch))
	return err
}
