package namesrv

import (
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func updateConfig(t *testing.T, s *testServer, text string) *remoting.Command {
	t.Helper()
	return s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte(text))
}

// TestProcessRequest_UpdateConfigPath: the file paths and the black list
// itself may not be changed over the wire (code 16), other keys may.
func TestProcessRequest_UpdateConfigPath(t *testing.T) {
	s := startServer(t, nil)
	cases := []struct {
		body     string
		wantCode int32
	}{
		{"enableTopicList=true", remoting.SUCCESS},
		{"configStorePath=/tmp/elsewhere.properties", remoting.NO_PERMISSION},
		{"kvConfigPath=/tmp/elsewhere.json", remoting.NO_PERMISSION},
		{"configBlackList=nothing", remoting.NO_PERMISSION},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			resp := updateConfig(t, s, tc.body)
			nstest.MustCode(t, resp, tc.wantCode)
			if tc.wantCode == remoting.NO_PERMISSION && !strings.Contains(resp.Remark, "Can not update config in black list.") {
				t.Fatalf("remark %q", resp.Remark)
			}
		})
	}
	if cfg := s.ns.settings.Get(); cfg.KvConfigPath == "/tmp/elsewhere.json" || cfg.ConfigBlackList == "nothing" {
		t.Fatalf("a refused update was applied: %+v", cfg)
	}
}

// TestUpdateConfig: Java parses "{key=value}" as key "{key", an unknown
// setting it keeps (answer 0); here it is refused, code 1 naming the key.
func TestUpdateConfig(t *testing.T) {
	s := startServer(t, nil)
	mustRefuse(t, updateConfig(t, s, "{key=value}"), "{key: unknown key")
	nstest.MustCode(t, s.call(t, remoting.UPDATE_NAMESRV_CONFIG, nil, nil), remoting.SUCCESS)
	mustRefuse(t, updateConfig(t, s, `enableTopicList=\u12`), "string2Properties error")
}

func TestGetConfig(t *testing.T) {
	s := startServer(t, nil)
	resp := s.call(t, remoting.GET_NAMESRV_CONFIG, nil, nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if !strings.Contains(string(resp.Body), "\nlistenPort=0\n") || !strings.Contains(string(resp.Body), "\nenableTopicList=true\n") {
		t.Fatalf("config body %q", resp.Body)
	}
	nstest.MustCode(t, updateConfig(t, s, "enableTopicList=false"), remoting.SUCCESS)
	if after := s.call(t, remoting.GET_NAMESRV_CONFIG, nil, nil); !strings.Contains(string(after.Body), "\nenableTopicList=false\n") {
		t.Fatalf("config body after the update %q", after.Body)
	}
}

// TestUpdateConfigTopicListSwitches: the list switches take effect at once
// (testGetAllTopicList and the enableTopicList lists).
func TestUpdateConfigTopicListSwitches(t *testing.T) {
	s := startJavaFixture(t, nil)
	cases := []struct {
		switchKey string
		code      int32
		ext       map[string]string
	}{
		{"enableAllTopicList", remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil},
		{"enableTopicList", remoting.GET_TOPICS_BY_CLUSTER, map[string]string{"cluster": "default-cluster"}},
		{"enableTopicList", remoting.GET_UNIT_TOPIC_LIST, nil},
		{"enableTopicList", remoting.GET_HAS_UNIT_SUB_TOPIC_LIST, nil},
		{"enableTopicList", remoting.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST, nil},
	}
	for _, tc := range cases {
		t.Run(remoting.RequestCodeName(tc.code), func(t *testing.T) {
			nstest.MustCode(t, s.call(t, tc.code, tc.ext, nil), remoting.SUCCESS)
			nstest.MustCode(t, updateConfig(t, s, tc.switchKey+"=false"), remoting.SUCCESS)
			disabled := s.call(t, tc.code, tc.ext, nil)
			if disabled.Code != remoting.SYSTEM_ERROR || disabled.Remark != "disable" {
				t.Fatalf("with %s=false: code %d remark %q, want 1 disable", tc.switchKey, disabled.Code, disabled.Remark)
			}
			nstest.MustCode(t, updateConfig(t, s, tc.switchKey+"=true"), remoting.SUCCESS)
			nstest.MustCode(t, s.call(t, tc.code, tc.ext, nil), remoting.SUCCESS)
		})
	}
	// The system topic list is not gated (protocol.md 2.14).
	nstest.MustCode(t, updateConfig(t, s, "enableTopicList=false\nenableAllTopicList=false"), remoting.SUCCESS)
	nstest.MustCode(t, s.call(t, remoting.GET_SYSTEM_TOPIC_LIST_FROM_NS, nil, nil), remoting.SUCCESS)
}

// TestUpdateConfigLogLevel: logLevel is applied to the running logger.
func TestUpdateConfigLogLevel(t *testing.T) {
	s := startServer(t, nil)
	if s.logger.GetLevel() != logrus.InfoLevel {
		t.Fatalf("start level %s, want info", s.logger.GetLevel())
	}
	nstest.MustCode(t, updateConfig(t, s, "logLevel=debug"), remoting.SUCCESS)
	if s.logger.GetLevel() != logrus.DebugLevel {
		t.Fatalf("level %s after logLevel=debug, want debug", s.logger.GetLevel())
	}
	mustRefuse(t, updateConfig(t, s, "logLevel=loud"), "logLevel")
	if s.logger.GetLevel() != logrus.DebugLevel {
		t.Fatalf("level %s after a refused logLevel, want debug", s.logger.GetLevel())
	}
}

// A typo key refuses the whole request, code 1 naming it and the closest
// key, and nothing of it is applied (Java answered success and stored the
// typo).
func TestUpdateConfigRefusesUnknownKeyAppliesNothing(t *testing.T) {
	s := startServer(t, nil)
	mustRefuse(t, updateConfig(t, s, "enableTopicList=false\norderMesageEnable=true"),
		"orderMesageEnable: unknown key (closest known key: orderMessageEnable)")
	if cfg := s.ns.settings.Get(); !cfg.EnableTopicList || cfg.OrderMessageEnable {
		t.Fatalf("a refused request applied a key: %+v", cfg)
	}
	mustRefuse(t, updateConfig(t, s, "enableTopicList=false\nwaitSecondsForService=abc"), "waitSecondsForService")
	if !s.ns.settings.Get().EnableTopicList {
		t.Fatal("a refused request applied a key")
	}
	nstest.MustCode(t, updateConfig(t, s, "enableTopicList=false\norderMessageEnable=true"), remoting.SUCCESS)
}
