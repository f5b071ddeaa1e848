package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestFromBuildInfoReadsTheVCSSettings(t *testing.T) {
	info := Info{ModuleVersion: Unknown, Commit: Unknown, CommitTime: Unknown, BuildTime: Unknown}
	fromBuildInfo(&info, &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261202130000-0123456789ab+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-12-02T13:00:00Z"}, {Key: "vcs.modified", Value: "true"}}})
	want := Info{ModuleVersion: "v0.0.0-20261202130000-0123456789ab+dirty", Commit: "0123456789abcdef-dirty", CommitTime: "2026-12-02T13:00:00Z", BuildTime: Unknown, GoVersion: "go1.26.8"}
	if info != want {
		t.Fatalf("got  %+v\nwant %+v", info, want)
	}
}

func TestLinkerValuesOnlyFillWhatIsMissing(t *testing.T) {
	x := linkerValues{moduleVersion: "v1.2.3", commit: "abc", commitTime: "ct", buildTime: "2026-12-02T14:00:00Z"}
	info := Info{ModuleVersion: "(devel)", Commit: Unknown, CommitTime: Unknown, BuildTime: Unknown}
	fillFromLinker(&info, x)
	if want := (Info{ModuleVersion: "v1.2.3", Commit: "abc", CommitTime: "ct", BuildTime: "2026-12-02T14:00:00Z"}); info != want {
		t.Fatalf("missing fields not filled: %+v", info)
	}
	info = Info{ModuleVersion: "v0.9.0", Commit: "fromvcs", CommitTime: "vcstime", BuildTime: Unknown}
	x.buildTime = ""
	fillFromLinker(&info, x)
	if want := (Info{ModuleVersion: "v0.9.0", Commit: "fromvcs", CommitTime: "vcstime", BuildTime: Unknown}); info != want {
		t.Fatalf("the build info was overridden: %+v", info)
	}
}

func TestStringNamesEveryField(t *testing.T) {
	text := Info{ModuleVersion: "v1.2.3", Commit: "abc", CommitTime: "ct", BuildTime: "bt", GoVersion: "go1.26.8"}.String("namesrv")
	want := "namesrv v1.2.3 (commit abc, committed ct, built bt, go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + ")"
	if text != want {
		t.Fatalf("got  %q\nwant %q", text, want)
	}
}

// TestReadInATestBinary: a test binary has build info (the Go version at
// least); no field is ever empty.
func TestReadInATestBinary(t *testing.T) {
	info := Read()
	if info.GoVersion != runtime.Version() {
		t.Errorf("GoVersion %q, want %q", info.GoVersion, runtime.Version())
	}
	for name, v := range map[string]string{"ModuleVersion": info.ModuleVersion, "Commit": info.Commit, "CommitTime": info.CommitTime, "BuildTime": info.BuildTime} {
		if v == "" {
			t.Errorf("%s empty", name)
		}
	}
}

func TestRequested(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-version"}, true},
		{[]string{"-c", "ns.conf", "--version"}, true},
		{[]string{"-versions"}, false},
		{[]string{"--", "-version"}, false},
	} {
		if got := Requested(tc.args); got != tc.want {
			t.Errorf("Requested(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
