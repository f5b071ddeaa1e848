package config

import (
	"errors"
	"maps"
	"os"
	"strings"
	"sync"
	"testing"
)

// wireBadValues lists, for every key UPDATE_NAMESRV_CONFIG may change,
// values that must be refused: wrong type, out of range, absurd.
var wireBadValues = map[string][]string{
	"orderMessageEnable":                   {"yes", "1", ""},
	"returnOrderTopicConfigToBroker":       {"no"},
	"supportActingMaster":                  {"on"},
	"enableAllTopicList":                   {"0"},
	"enableTopicList":                      {"maybe"},
	"notifyMinBrokerIdChanged":             {"t"},
	"needWaitForService":                   {"y"},
	"deleteTopicWithBrokerRegistration":    {"nope"},
	"clusterTest":                          {"x"},
	"waitSecondsForService":                {"2147483647", "-1", "601", "ten", "99999999999"},
	"peerRoutesHealMillis":                 {"-1", "3600001", "soon"},
	"logLevel":                             {"panic", "fatal", "PANIC", "loud", ""},
	"logFormat":                            {"xml", ""},
	"clientRequestThreadPoolNums":          {"0", "-4", "1025", "2147483647"},
	"defaultThreadPoolNums":                {"0", "-1", "100000"},
	"clientRequestThreadPoolQueueCapacity": {"0", "2147483647"},
	"defaultThreadPoolQueueCapacity":       {"0", "-5", "2147483647", "1e9"},
	"unRegisterBrokerQueueCapacity":        {"0", "2147483647"},
	"serverWorkerThreads":                  {"-1", "5000"},
	"serverCallbackExecutorThreads":        {"-1", "5000"},
	"serverSelectorThreads":                {"-1", "5000"},
	"serverOnewaySemaphoreValue":           {"-1", "2147483647"},
	"serverAsyncSemaphoreValue":            {"-1", "2147483647"},
	"serverSocketSndBufSize":               {"-1", "2147483647"},
	"serverSocketRcvBufSize":               {"-1", "2147483647"},
	"writeBufferHighWaterMark":             {"-1", "2147483647"},
	"writeBufferLowWaterMark":              {"-1", "2147483647"},
	"serverSocketBacklog":                  {"-1", "70000"},
	"shutdownWaitTimeSeconds":              {"-1", "601", "2147483647"},
	"serverNettyWorkerGroupEnable":         {"x"},
	"serverPooledByteBufAllocatorEnable":   {"x"},
	"enableShutdownGracefully":             {"x"},
	"useEpollNativeSelector":               {"x"},
	"productEnvName":                       {strings.Repeat("x", MaxWireValueLength+1)},
}

// TestWireKeysAllCovered: every key reachable over the wire has bad values
// in the table above, so a key added later is tested too.
func TestWireKeysAllCovered(t *testing.T) {
	s, _ := captureServer(t)
	for _, key := range Keys() {
		if _, black := s.blackList[key]; black || IsProtected(key) {
			continue
		}
		if _, ok := wireBadValues[key]; !ok {
			t.Errorf("no bad values for the wire key %s", key)
		}
	}
}

func TestUpdateRefusesEveryBadValue(t *testing.T) {
	s, _ := captureServer(t)
	before := s.Get().Values()
	file, _ := os.ReadFile(s.Get().ConfigStorePath)
	for key, values := range wireBadValues {
		for _, value := range values {
			// A good key beside the bad one: nothing may be applied.
			_, err := s.Update(map[string]string{"supportActingMaster": "true", key: value})
			var keyErr *KeyError
			if !errors.As(err, &keyErr) || keyErr.Key != key || !errors.Is(err, ErrInvalidValue) {
				t.Errorf("%s=%q: err = %v", key, value, err)
			}
		}
	}
	if !maps.Equal(before, s.Get().Values()) || s.DataVersion() != 0 {
		t.Fatal("a refused update changed the settings")
	}
	if now, _ := os.ReadFile(s.Get().ConfigStorePath); string(now) != string(file) {
		t.Fatal("a refused update rewrote the file")
	}
}

func TestUpdateRefusesProtectedKeys(t *testing.T) {
	s, _ := captureServer(t)
	for _, key := range append(ProtectedKeys, "tls.server.mode", "tls.server.keyPassword", "aclSomethingNew") {
		_, err := s.Update(map[string]string{"orderMessageEnable": "true", key: "1"})
		if !errors.Is(err, ErrProtected) || !strings.HasPrefix(err.Error(), key+" ") {
			t.Errorf("%s: err = %v", key, err)
		}
	}
	if s.Get().OrderMessageEnable {
		t.Fatal("a refused update applied a key")
	}
}

func TestUpdateAcceptsGoodBounds(t *testing.T) {
	s, _ := captureServer(t)
	good := map[string]string{"waitSecondsForService": "600", "needWaitForService": "TRUE", "logLevel": "warn",
		"defaultThreadPoolQueueCapacity": "1000000", "shutdownWaitTimeSeconds": "0"}
	if _, err := s.Update(good); err != nil {
		t.Fatal(err)
	}
	cfg := s.Get()
	if !cfg.NeedWaitForService || cfg.WaitSecondsForService != 600 || cfg.LogLevel != "warn" {
		t.Fatalf("good values not applied: %+v", cfg)
	}
}

// TestConcurrentUpdatesApplyInOrder: the callback of the update published
// last runs last, so whoever follows the callbacks ends on the newest
// settings.
func TestConcurrentUpdatesApplyInOrder(t *testing.T) {
	s, _ := captureServer(t)
	var mu sync.Mutex
	var applied *Config
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := "true"
			if i%2 == 0 {
				v = "false"
			}
			_, _ = s.UpdateThen(map[string]string{"supportActingMaster": v, "orderMessageEnable": v}, func(next *Config, _ []string) {
				mu.Lock()
				applied = next
				mu.Unlock()
			})
		}()
	}
	wg.Wait()
	if applied != s.Get() {
		t.Fatal("the last callback did not see the published settings")
	}
}

func TestValidateChoicesAndBounds(t *testing.T) {
	cfg := Default()
	cfg.TLSServerMode = "sometimes"
	var keyErr *KeyError
	if err := cfg.Validate(); !errors.As(err, &keyErr) || keyErr.Key != "tls.server.mode" {
		t.Fatalf("err = %v", err)
	}
	cfg = Default()
	cfg.MaxFrameSize = 16
	if err := cfg.Validate(); !errors.As(err, &keyErr) || keyErr.Key != "frameMaxLength" {
		t.Fatalf("err = %v", err)
	}
	if cfg := Default(); cfg.ACLFile() != strings.TrimSuffix(cfg.KvConfigPath, "kvConfig.json")+DefaultACLFileName {
		t.Fatalf("default aclFile = %s", cfg.ACLFile())
	}
}
