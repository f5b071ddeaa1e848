// Package buildinfo says which build a binary is: the module version, the
// commit, the build time and the Go version, read from the build info the
// Go toolchain embeds (runtime/debug.ReadBuildInfo and its vcs.* settings).
// The build time is not in that info, so `make build` and `make dist` set it
// with -ldflags -X; the commit too, for a build from a source tree without
// .git (the build info then has no vcs settings). Every binary of cmd/
// prints it on -version; the NameServer exports it in build_info.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by the linker (Makefile: -ldflags "-X ...buildinfo.buildTime=..."),
// empty in a plain go build. moduleVersion, commit and commitTime are used
// only when the build info lacks them (a build with -buildvcs=false, or of
// a git worktree, which the toolchain does not stamp).
var (
	buildTime     string
	commit        string
	commitTime    string
	moduleVersion string
)

// Unknown is what a field says when the build did not record it.
const Unknown = "unknown"

// Info describes one build.
type Info struct {
	// ModuleVersion is the main module's version: a tag (v1.2.3), a
	// pseudo-version from the commit (v0.0.0-20261202130000-abcdef123456,
	// +dirty when the tree had changes), or "(devel)".
	ModuleVersion string
	Commit        string // vcs.revision, with "-dirty" when vcs.modified
	CommitTime    string // vcs.time (RFC 3339)
	BuildTime     string // RFC 3339, from -ldflags -X; Unknown without
	GoVersion     string // runtime.Version()
}

// Read returns this binary's build.
func Read() Info {
	info := Info{ModuleVersion: Unknown, Commit: Unknown, CommitTime: Unknown, BuildTime: Unknown, GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		fromBuildInfo(&info, bi)
	}
	fillFromLinker(&info, linkerValues{moduleVersion: moduleVersion, commit: commit, commitTime: commitTime, buildTime: buildTime})
	return info
}

// fromBuildInfo copies what the toolchain recorded.
func fromBuildInfo(info *Info, bi *debug.BuildInfo) {
	if v := bi.Main.Version; v != "" {
		info.ModuleVersion = v
	}
	if bi.GoVersion != "" {
		info.GoVersion = bi.GoVersion
	}
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			info.Commit = s.Value
		case "vcs.time":
			info.CommitTime = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if modified && info.Commit != Unknown {
		info.Commit += "-dirty"
	}
}

// linkerValues are the -X values of one binary.
type linkerValues struct{ moduleVersion, commit, commitTime, buildTime string }

// fillFromLinker uses the -X values for what the build info lacks (the
// build time always).
func fillFromLinker(info *Info, x linkerValues) {
	if x.moduleVersion != "" && (info.ModuleVersion == Unknown || info.ModuleVersion == "(devel)") {
		info.ModuleVersion = x.moduleVersion
	}
	if x.commit != "" && info.Commit == Unknown {
		info.Commit = x.commit
	}
	if x.commitTime != "" && info.CommitTime == Unknown {
		info.CommitTime = x.commitTime
	}
	if x.buildTime != "" {
		info.BuildTime = x.buildTime
	}
}

// String is the -version text of program: one line an operator can paste
// into a report.
func (i Info) String(program string) string {
	return fmt.Sprintf("%s %s (commit %s, committed %s, built %s, %s %s/%s)",
		program, i.ModuleVersion, i.Commit, i.CommitTime, i.BuildTime, i.GoVersion, runtime.GOOS, runtime.GOARCH)
}

// Requested says whether args ask for the version: "-version" or
// "--version" anywhere in them, so it works before any other flag parsing
// (the NameServer's flags are the Java ones, parsed by namesrv/config).
func Requested(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-version" || a == "--version" {
			return true
		}
	}
	return false
}
