package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
)

// haStatus (Java tools/.../command/ha/HAStatusSubCommand):
// GET_BROKER_HA_STATUS (907) of one broker or of a cluster's masters,
// again every -i seconds with -i.
var haStatusCommand = command{name: "haStatus", desc: "Fetch ha runtime status data.",
	className: "HAStatusSubCommand", read: true, run: runHAStatus, opts: []option{
		opt("c", "clusterName", true, false, "which cluster"),
		opt("b", "brokerAddr", true, false, "which broker to fetch"),
		opt("i", "interval", true, false, "the interval(second) of get info"),
	}}

func runHAStatus(e *env) error {
	if !e.args.has("b") && !e.args.has("c") {
		return errUsage
	}
	return repeatEvery(e, func() error { return haStatusOnce(e) })
}

func haStatusOnce(e *env) error {
	targets, err := brokerOrCluster(e, false)
	if err != nil {
		return err
	}
	return readEach(e, targets, func(t brokerTarget) (admin.HARuntimeInfo, error) {
		var info admin.HARuntimeInfo
		resp, err := e.client.invoke(t.addr, admin.CodeGetBrokerHAStatus, nil, nil)
		if err != nil {
			return info, err
		}
		if err := json.Unmarshal(resp.Body, &info); err != nil {
			return info, fmt.Errorf("HA status of %s: %w", t.addr, err)
		}
		return info, nil
	}, func(t brokerTarget, info admin.HARuntimeInfo) { fmt.Fprint(e.out, formatHAStatus(t.addr, info)) })
}

// formatHAStatus is Java's printStatus: a master's slave connections, or a
// slave's replication client.
func formatHAStatus(addr string, info admin.HARuntimeInfo) string {
	if info.Master {
		text := fmt.Sprintf("\n#MasterAddr\t%s\n#MasterCommitLogMaxOffset\t%d\n#SlaveNum\t%d\n#InSyncSlaveNum\t%d\n",
			addr, info.MasterCommitLogMaxOffset, len(info.HAConnectionInfo), info.InSyncSlaveNums)
		text += fmt.Sprintf("%-32s  %-16s %16s %16s %16s %16s\n",
			"#SlaveAddr", "#SlaveAckOffset", "#Diff", "#TransferSpeed(KB/s)", "#Status", "#TransferFromWhere")
		for _, c := range info.HAConnectionInfo {
			status := "Fall Behind"
			if c.InSync {
				status = "OK"
			}
			text += fmt.Sprintf("%-32s  %-16d %16d %16.2f %16s %16d\n",
				c.Addr, c.SlaveAckOffset, c.Diff, float64(c.TransferredByteInSecond)/1024.0, status, c.TransferFromWhere)
		}
		return text
	}
	c := info.HAClientRuntimeInfo
	return fmt.Sprintf("\n#MasterAddr\t%s\n#CommitLogMaxOffset\t%d\n#TransferSpeed(KB/s)\t%.2f\n#LastReadTime\t%s\n#LastWriteTime\t%s\n#MasterFlushOffset\t%d\n",
		javaNull(c.MasterAddr), c.MaxOffset, float64(c.TransferredByteInSecond)/1024.0,
		javaMillisTime(c.LastReadTimestamp), javaMillisTime(c.LastWriteTimestamp), c.MasterFlushOffset)
}

// javaMillisTime is Java's UtilAll.timeMillisToHumanString2 in local time:
// 2006-01-02 15:04:05,000.
func javaMillisTime(millis int64) string {
	t := time.UnixMilli(millis)
	return fmt.Sprintf("%s,%03d", t.Format("2006-01-02 15:04:05"), t.Nanosecond()/int(time.Millisecond))
}
