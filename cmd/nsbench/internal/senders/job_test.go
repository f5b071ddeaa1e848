package senders

import (
	"errors"
	"io"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
)

func TestJobArgsParseBack(t *testing.T) {
	want := Job{Addr: "127.0.0.1:9876", Spec: load.LayoutSpec{Clusters: 4, BrokersPerCluster: 8, TopicsPerCluster: 10000, QueueNums: 8},
		Mode: load.RegisterChanged, PauseBelow: 100 * time.Millisecond,
		Window: load.Window{Warmup: time.Second, Measure: 5 * time.Second}}
	got, err := ParseJob(want.Args(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("parsed %+v, want %+v", got, want)
	}
}

func TestParseJobRefusesIncompleteJobs(t *testing.T) {
	good := Job{Addr: "a:1", Spec: load.LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1},
		Mode: load.RegisterNewVersion, Window: load.Window{Measure: time.Second}}
	cases := map[string][]string{
		"no address":     append(good.Args(), "-addr", ""),
		"unknown mode":   append(good.Args(), "-mode", "register-sometimes"),
		"no topics":      append(good.Args(), "-topics", "0"),
		"no queues":      append(good.Args(), "-queues", "0"),
		"no window":      append(good.Args(), "-duration", "0s"),
		"negative pause": append(good.Args(), "-pause-below", "-1s"),
		"unknown flag":   append(good.Args(), "-seed", "true"),
	}
	for name, args := range cases {
		if _, err := ParseJob(args, io.Discard); !errors.Is(err, ErrBadJob) {
			t.Errorf("%s: %v, want ErrBadJob", name, err)
		}
	}
}

func TestPauseIsNilForFlatOut(t *testing.T) {
	if (Job{}).pause() != nil {
		t.Fatal("a job without a pause must run flat out (nil pause)")
	}
	if (Job{PauseBelow: time.Millisecond}).pause() == nil {
		t.Fatal("a job with a pause has none")
	}
}
