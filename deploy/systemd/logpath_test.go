package systemd

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// writableDirs are the folders a unit lets its service write under
// ProtectSystem=strict: its StateDirectory, LogsDirectory, CacheDirectory,
// RuntimeDirectory (each under the folder systemd creates it in) and
// ReadWritePaths, with %i as instance.
func writableDirs(u unit, instance string) []string {
	roots := map[string]string{
		"StateDirectory":   "/var/lib/",
		"LogsDirectory":    "/var/log/",
		"CacheDirectory":   "/var/cache/",
		"RuntimeDirectory": "/run/",
		"ReadWritePaths":   "",
	}
	var dirs []string
	for key, root := range roots {
		for _, d := range strings.Fields(u.service[key]) {
			d = strings.TrimPrefix(d, "-") // "-PATH": ignored when missing
			dirs = append(dirs, path.Clean(root+strings.ReplaceAll(d, "%i", instance)))
		}
	}
	return dirs
}

// logFileExamples are the logFile=PATH values a unit's comments suggest,
// and the instance its comments name (gonamesrv@a.service: a).
func logFileExamples(t *testing.T, file string) (paths []string, instance string) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var comments strings.Builder
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			comments.WriteString(line + "\n")
		}
	}
	for _, m := range regexp.MustCompile(`logFile=(/[^\s,;)]*[^\s,;).])`).FindAllStringSubmatch(comments.String(), -1) {
		paths = append(paths, m[1])
	}
	if m := regexp.MustCompile(`@([A-Za-z0-9_-]+)\.service`).FindStringSubmatch(comments.String()); m != nil {
		instance = m[1]
	}
	return paths, instance
}

// TestSuggestedLogFileIsWritable: a logFile path a unit's comments suggest
// is inside a folder that unit lets the NameServer write (the rest of the
// system is read-only under ProtectSystem=strict), for the instance the
// comments name. gonamesrv@.service once suggested
// /var/lib/gonamesrv/namesrv.log, outside every instance's state folder.
func TestSuggestedLogFileIsWritable(t *testing.T) {
	for _, file := range []string{"gonamesrv.service", "gonamesrv@.service", "gonamesrv-broker@.service"} {
		u := readUnit(t, file)
		paths, instance := logFileExamples(t, file)
		if strings.Contains(file, "@") && len(paths) > 0 && instance == "" {
			t.Errorf("%s: a logFile example but no instance named (gonamesrv@NAME.service) to read it for", file)
		}
		if file != "gonamesrv-broker@.service" && len(paths) == 0 {
			t.Errorf("%s: no logFile=PATH example in the comments", file)
		}
		dirs := writableDirs(u, instance)
		for _, p := range paths {
			writable := false
			for _, d := range dirs {
				if strings.HasPrefix(path.Clean(p), d+"/") {
					writable = true
				}
			}
			if !writable {
				t.Errorf("%s: the comment suggests logFile=%s, outside the folders the unit can write for instance %q: %v", file, p, instance, dirs)
			}
		}
	}
}
