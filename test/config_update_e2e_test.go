package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestUpdateConfigBadValuesApplyNothing sends UPDATE_NAMESRV_CONFIG with each
// kind of bad value, each beside a good key, to a server started with -c:
// every one is refused saying which key, and neither the settings nor the
// file change; the server keeps answering route queries.
func TestUpdateConfigBadValuesApplyNothing(t *testing.T) {
	confFile := filepath.Join(t.TempDir(), "namesrv.properties")
	if err := os.WriteFile(confFile, []byte("orderMessageEnable=false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ns := startNamesrv(t, "-c", confFile)
	storeFile := filepath.Join(ns.DataDir, "namesrv.properties") // -data's configStorePath wins over -c
	client := nstest.NewClient(t, ns.Addr)
	getConfig := func() string {
		resp := nstest.Invoke(t, client, remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil))
		nstest.MustCode(t, resp, remoting.SUCCESS)
		return string(resp.Body)
	}
	beforeConfig := getConfig()
	beforeFile, _ := os.ReadFile(storeFile)

	bad := []struct {
		body, key string
		code      int32
	}{
		{"needWaitForService=true\nwaitSecondsForService=2147483647", "waitSecondsForService", remoting.SYSTEM_ERROR},
		{"waitSecondsForService=-1", "waitSecondsForService", remoting.SYSTEM_ERROR},
		{"logLevel=panic", "logLevel", remoting.SYSTEM_ERROR},
		{"logLevel=fatal", "logLevel", remoting.SYSTEM_ERROR},
		{"defaultThreadPoolQueueCapacity=2147483647", "defaultThreadPoolQueueCapacity", remoting.SYSTEM_ERROR},
		{"defaultThreadPoolNums=0", "defaultThreadPoolNums", remoting.SYSTEM_ERROR},
		{"unRegisterBrokerQueueCapacity=-3", "unRegisterBrokerQueueCapacity", remoting.SYSTEM_ERROR},
		{"scanNotActiveBrokerInterval=86400000", "scanNotActiveBrokerInterval", remoting.NO_PERMISSION},
		{"addressServerList=10.66.66.66:9876", "addressServerList", remoting.NO_PERMISSION},
		{"shutdownWaitTimeSeconds=2147483647", "shutdownWaitTimeSeconds", remoting.SYSTEM_ERROR},
		{"enableTopicList=yes", "enableTopicList", remoting.SYSTEM_ERROR},
		{"clientRequestThreadPoolNums=many", "clientRequestThreadPoolNums", remoting.SYSTEM_ERROR},
		{"logFormat=xml", "logFormat", remoting.SYSTEM_ERROR},
		{"frameMaxLength=16", "frameMaxLength", remoting.NO_PERMISSION},
		{"bindAddress=0.0.0.0", "bindAddress", remoting.NO_PERMISSION},
		{"listenPort=1", "listenPort", remoting.NO_PERMISSION},
		{"requestMemoryLimit=1", "requestMemoryLimit", remoting.NO_PERMISSION},
		{"serverChannelMaxIdleTimeSeconds=2147483647", "serverChannelMaxIdleTimeSeconds", remoting.NO_PERMISSION},
		{"aclEnable=false", "aclEnable", remoting.NO_PERMISSION},
		{"adminWhiteRemoteAddresses=*", "adminWhiteRemoteAddresses", remoting.NO_PERMISSION},
		{"tls.server.mode=disabled", "tls.server.mode", remoting.NO_PERMISSION},
	}
	for _, b := range bad {
		body := "orderMessageEnable=true\n" + b.body + "\n"
		resp := nstest.Invoke(t, client, remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte(body)))
		if resp.Code != b.code || !strings.Contains(resp.Remark, b.key) {
			t.Errorf("%q: code %d remark %q, want code %d naming %s", b.body, resp.Code, resp.Remark, b.code, b.key)
		}
	}
	if got := getConfig(); got != beforeConfig {
		t.Fatalf("a refused update changed the settings:\n%s\nwas\n%s", got, beforeConfig)
	}
	if got, _ := os.ReadFile(storeFile); string(got) != string(beforeFile) {
		t.Fatalf("a refused update wrote configStorePath:\n%s", got)
	}
	if resp := nstest.RouteQuery(t, client, "NoSuchTopic", remoting.CurrentVersion); resp.Code != remoting.TOPIC_NOT_EXIST {
		t.Fatalf("route query after the refusals: code %d %q", resp.Code, resp.Remark)
	}

	// A good update applies, is written and logged (before a level change).
	resp := nstest.Invoke(t, client, remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("orderMessageEnable=true\nlogLevel=error\n")))
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if got, _ := os.ReadFile(storeFile); !strings.Contains(string(got), "orderMessageEnable=true") {
		t.Fatalf("the good update is not in the file:\n%s", got)
	}
	if log, _ := os.ReadFile(ns.logPath); !strings.Contains(string(log), "name server config updated") {
		t.Fatal("the update that raised the log level is not logged")
	}
}
