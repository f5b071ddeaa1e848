package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
)

func TestRunWithoutModePrintsEveryMode(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for name := range modes {
		if !strings.Contains(stdout.String(), "  "+name+" ") {
			t.Errorf("usage lacks mode %s:\n%s", name, stdout.String())
		}
	}
}

func TestRunRefusesBadInput(t *testing.T) {
	cases := [][]string{
		{"nosuchmode"},
		{"route", "-loads", "64"},
		{"route", "-loads", "0x1"},
		{"route", "-against", "java"},
		{"register", "-changed", "sometimes"},
		{"route", "-topics", "0"},
		{"route", "-queues", "-1"},
		{"route", "-duration", "0s"},
		{"route", "-no-such-flag"},
		{"jmh-route", "-senders", "thread"},
		{"storm-senders", "-addr", "127.0.0.1:1"},
	}
	for _, args := range cases {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage error); stderr %s", args, code, stderr.String())
		}
	}
}

func TestRunSuiteRefusesAnExternalServer(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"suite", "-addr", "127.0.0.1:9876"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
}

func TestParseLoads(t *testing.T) {
	loads, err := parseLoads("1x1, 64x8")
	if err != nil || len(loads) != 2 || loads[1].Conns != 64 || loads[1].InFlight != 8 {
		t.Fatalf("loads %v, %v", loads, err)
	}
}

func TestDefaultsFollowTheIssue(t *testing.T) {
	route := defaultOptions("route")
	if route.spec.BrokersPerCluster != 8 || route.spec.TopicsPerCluster != 100 || route.spec.QueueNums != 8 || route.loads != "64x1,64x8" {
		t.Fatalf("route defaults %+v", route)
	}
	jmh := defaultOptions("jmh-route")
	if jmh.spec.Clusters != 4 || jmh.spec.TopicsPerCluster != 10000 || jmh.loads != "4x1" {
		t.Fatalf("jmh defaults %+v", jmh)
	}
	if got := defaultOptions("register").spec.TopicsPerCluster; got != 10000 {
		t.Fatalf("register defaults to %d topics", got)
	}
	if got := registerModes("both"); !slices.Equal(got, []load.RegisterMode{load.RegisterChanged, load.RegisterUnchanged}) {
		t.Fatalf("both = %v, want changed then unchanged", got)
	}
	if got := registerModes("all"); len(got) != 3 || got[1] != load.RegisterNewVersion {
		t.Fatalf("all = %v, want changed, new-version, unchanged", got)
	}
	if got := defaultOptions("jmh-route").senders; got != sendersChild {
		t.Fatalf("jmh-route sends its storm from %q, want a child process", got)
	}
	if got := (&options{against: "baseline"}).targets(); len(got) != 1 || got[0] != "baseline" {
		t.Fatalf("targets %v", got)
	}
}
