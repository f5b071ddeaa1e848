package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

func TestPrintConfigShowsJavaKeys(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"-controllerDLegerPeers", "n0-127.0.0.1:9877", "-controllerDLegerSelfId", "n0", "-p"}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"controllerType=DLedger\n", "controllerDLegerPeers=n0-127.0.0.1:9877\n", "scanNotActiveBrokerInterval=5000\n",
		"controllerRaftPortOffset=1000\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-p lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBadConfigExitsOne(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-controllerDLegerPeers", "n0-127.0.0.1:9877", "-controllerDLegerSelfId", "n5"}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "controllerDLegerSelfId") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

func TestSidePortServesStatusAndMetrics(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1000)
	httpPort, ok2 := nstest.FreePort()
	if !ok || !ok2 {
		t.Skip("no free ports")
	}
	cfg := config.Default()
	cfg.ControllerDLegerPeers = fmt.Sprintf("n0-127.0.0.1:%d", base)
	cfg.ControllerDLegerSelfID, cfg.ControllerStorePath, cfg.HTTPListenPort = "n0", t.TempDir(), httpPort
	cfg.RaftHeartbeatTimeoutMillis, cfg.RaftElectionTimeoutMillis = 200, 200
	svc, err := node.Start(cfg, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	stop, err := serveHTTP(cfg, svc.Node, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		stop(ctx)
		_ = svc.Shutdown(ctx)
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	var st node.Status
	for deadline := time.Now().Add(20 * time.Second); !st.Serving; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("status never says serving: %+v", st)
		}
		resp, err := http.Get(url + "/v1/controller")
		if err != nil {
			t.Fatal(err)
		}
		_ = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
	}
	if st.Role != "Leader" || st.LeaderID != "n0" || len(st.Peers) != 1 || st.Peers[0].RaftAddr != fmt.Sprintf("127.0.0.1:%d", base+1000) {
		t.Fatalf("status %+v", st)
	}
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "rocketmq_controller_role 1\n") || strings.Contains(string(body), "rocketmq_controller_log_bytes 0\n") {
		t.Fatalf("metrics:\n%s", body)
	}
}

// A damaged store stops the standalone controller with exit status 1 and a
// log line naming the file (it used to panic inside hashicorp/raft).
func TestDamagedStoreExitsOneNamingTheFile(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1000)
	if !ok {
		t.Skip("no free ports")
	}
	store := t.TempDir()
	cfg := config.Default()
	cfg.ControllerDLegerPeers = fmt.Sprintf("n0-127.0.0.1:%d", base)
	cfg.ControllerDLegerSelfID, cfg.ControllerStorePath = "n0", store
	db := filepath.Join(node.StoreDir(cfg), "raft.db")
	if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
		t.Fatal(err)
	}
	boltStore, err := raftboltdb.NewBoltStore(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := boltStore.StoreLog(&raft.Log{Index: 1, Term: 1, Type: raft.LogConfiguration, Data: []byte{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	boltStore.Close()

	// The logger writes to os.Stderr (logsetup): read it from a file.
	logFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = logFile
	defer func() { os.Stderr = saved; logrus.SetOutput(saved) }()
	var out, errOut bytes.Buffer
	code := run([]string{"-controllerDLegerPeers", cfg.ControllerDLegerPeers, "-controllerDLegerSelfId", "n0",
		"-controllerStorePath", store, "-httpListenPort", "-1"}, &out, &errOut)
	logged, _ := os.ReadFile(logFile.Name())
	if code != 1 || !strings.Contains(string(logged), db) || !strings.Contains(string(logged), "raft log index 1") {
		t.Fatalf("exit %d, log:\n%s", code, logged)
	}
}
