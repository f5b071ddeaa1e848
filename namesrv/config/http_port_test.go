package config

import (
	"io"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// TestHTTPPortFollowsListenPort: without httpListenPort the side port is
// listenPort + 4, so the README's two NameServers (9876 and 9877) get 9880
// and 9881; a file or a flag that sets it wins, whatever listenPort says.
func TestHTTPPortFollowsListenPort(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"default", nil, 9880},
		{"-listenPort 9877", []string{"-listenPort", "9877"}, 9881},
		{"-port alias", []string{"-port", "10000"}, 10004},
		{"free listen port", []string{"-listenPort", "0"}, 0},
		{"top of the range", []string{"-listenPort", "65535"}, 65531},
		{"flag wins", []string{"-listenPort", "9877", "-httpListenPort", "9990"}, 9990},
		{"flag before listenPort wins", []string{"-httpListenPort", "9990", "-listenPort", "9877"}, 9990},
		{"off stays off", []string{"-listenPort", "9877", "-httpListenPort", "-1"}, -1},
		{"file sets listenPort", []string{"-c", writeFile(t, "listenPort=9877\n")}, 9881},
		{"file sets both", []string{"-c", writeFile(t, "listenPort=9877\nhttpListenPort=9880\n")}, 9880},
		{"file port, flag listenPort", []string{"-c", writeFile(t, "httpListenPort=9990\n"), "-listenPort", "9877"}, 9990},
	}
	for _, c := range cases {
		cfg, _, err := FromArgs(c.args, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cfg.HTTPListenPort != c.want {
			t.Errorf("%s: httpListenPort = %d, want %d", c.name, cfg.HTTPListenPort, c.want)
		}
	}
}

// TestDerivedHTTPPortIsNotListed: GET_NAMESRV_CONFIG (and the file an
// update writes) leaves out the side port a server derived from its listen
// port, as it leaves out every other Go default, and keeps one a flag set.
func TestDerivedHTTPPortIsNotListed(t *testing.T) {
	for args, want := range map[string]bool{"-listenPort 9877": false, "-listenPort 9877 -httpListenPort 9990": true} {
		cfg, _, err := FromArgs(strings.Fields(args), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		listed := strings.Contains(string(NewSettings(cfg, testlog.Discard()).Properties()), "httpListenPort=")
		if listed != want {
			t.Errorf("%s: httpListenPort listed %v, want %v", args, listed, want)
		}
	}
}
