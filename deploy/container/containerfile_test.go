package container

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

// instruction is one Containerfile statement, continuations joined.
type instruction struct{ op, args string }

// stages splits the Containerfile into its build stages.
func stages(t *testing.T) [][]instruction {
	t.Helper()
	f, err := os.Open("Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all [][]instruction
	var pending string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if pending == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			pending += strings.TrimSuffix(line, "\\") + " "
			continue
		}
		line, pending = pending+line, ""
		op, args, _ := strings.Cut(line, " ")
		in := instruction{strings.ToUpper(op), strings.TrimSpace(args)}
		if in.op == "FROM" {
			all = append(all, nil)
		}
		if len(all) == 0 {
			t.Fatalf("%s before FROM", in.op)
		}
		all[len(all)-1] = append(all[len(all)-1], in)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return all
}

func find(stage []instruction, op string) []string {
	var args []string
	for _, in := range stage {
		if in.op == op {
			args = append(args, in.args)
		}
	}
	return args
}

// TestContainerfileStatements: a static build, the final stage running as a
// non-root user, the side port's /healthz as HEALTHCHECK on an exposed port,
// both ports exposed, SIGTERM as the stop signal, namesrv as entrypoint.
func TestContainerfileStatements(t *testing.T) {
	all := stages(t)
	if len(all) < 2 {
		t.Fatalf("%d stages, want a build stage and the image", len(all))
	}
	build, final := all[0], all[len(all)-1]
	buildName := regexp.MustCompile(`(?i) AS (\S+)$`).FindStringSubmatch(build[0].args)
	if buildName == nil {
		t.Fatalf("build stage %q has no name", build[0].args)
	}
	if !slices.ContainsFunc(find(build, "RUN"), func(r string) bool {
		return strings.Contains(r, "CGO_ENABLED=0 go build") && strings.Contains(r, "./cmd/namesrv")
	}) {
		t.Error("no CGO_ENABLED=0 go build of ./cmd/namesrv in the build stage")
	}
	if !slices.ContainsFunc(find(final, "COPY"), func(c string) bool {
		return strings.Contains(c, "--from="+buildName[1]) && strings.Contains(c, "/namesrv")
	}) {
		t.Error("the image does not copy namesrv from the static build")
	}
	users := find(final, "USER")
	if len(users) == 0 {
		t.Fatal("no USER in the image: it would run as root")
	}
	user, _, _ := strings.Cut(users[len(users)-1], ":")
	if user == "root" || user == "0" {
		t.Errorf("USER %s", users[len(users)-1])
	}
	var exposed []string
	for _, e := range find(final, "EXPOSE") {
		exposed = append(exposed, strings.Fields(e)...)
	}
	health := find(final, "HEALTHCHECK")
	if len(health) != 1 {
		t.Fatalf("%d HEALTHCHECKs, want 1", len(health))
	}
	m := regexp.MustCompile(`CMD .*http://127\.0\.0\.1:(\d+)/healthz`).FindStringSubmatch(health[0])
	if m == nil {
		t.Fatalf("HEALTHCHECK %q does not ask /healthz", health[0])
	}
	for _, port := range []string{"9876", m[1]} {
		if !slices.Contains(exposed, port) {
			t.Errorf("port %s not exposed (EXPOSE %v)", port, exposed)
		}
	}
	if s := find(final, "STOPSIGNAL"); len(s) != 1 || s[0] != "SIGTERM" {
		t.Errorf("STOPSIGNAL %v, want SIGTERM (cmd/namesrv's graceful stop)", s)
	}
	if e := find(final, "ENTRYPOINT"); len(e) != 1 || !strings.Contains(e[0], `"/usr/local/bin/namesrv"`) {
		t.Errorf("ENTRYPOINT %v, want /usr/local/bin/namesrv", e)
	}
}

// engine is a container tool whose engine answers (docker info or podman
// info succeeding), "" when none.
func engine() (string, string) {
	var why []string
	for _, tool := range []string{"podman", "docker"} {
		path, err := exec.LookPath(tool)
		if err != nil {
			why = append(why, tool+" not installed")
			continue
		}
		if out, err := exec.Command(path, "info").CombinedOutput(); err != nil {
			why = append(why, fmt.Sprintf("%s info fails (%v: %s)", tool, err, lastLine(string(out))))
			continue
		}
		return path, ""
	}
	return "", strings.Join(why, "; ")
}

// lastLine is where docker and podman say why the engine does not answer.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// TestImageBuildsAndRuns builds the image (with the stamp's build
// arguments, which -version must print), runs it with the side port
// published on a free loopback port, waits for /healthz and the engine's
// health status, and stops it: exit status 0 (the graceful stop).
func TestImageBuildsAndRuns(t *testing.T) {
	tool, why := engine()
	if tool == "" {
		t.Skipf("no container engine to build the image with: %s", why)
	}
	tag := fmt.Sprintf("gonamesrv-deploy-test:%d", os.Getpid())
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tool, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", tool, args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	const version = "v0.0.0-imagetest"
	build := exec.Command(tool, "build", "-f", "deploy/container/Containerfile", "--build-arg", "VERSION="+version,
		"--build-arg", "COMMIT=c0ffee", "--build-arg", "BUILD_TIME=2026-01-02T03:04:05Z", "-t", tag, ".")
	build.Dir = repo.Root(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command(tool, "rmi", "-f", tag).Run() })
	// The build arguments reach -version (internal/buildinfo).
	if v := run("run", "--rm", tag, "-version"); !strings.Contains(v, "namesrv "+version+" (commit c0ffee,") || !strings.Contains(v, "built 2026-01-02T03:04:05Z") {
		t.Errorf("the image's namesrv -version: %s", v)
	}
	port := repo.FreePort(t, 0)
	id := run("run", "-d", "-p", fmt.Sprintf("127.0.0.1:%d:9880", port), tag)
	t.Cleanup(func() { exec.Command(tool, "rm", "-f", id).Run() })
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", port))
		healthy := err == nil && resp.StatusCode == http.StatusOK
		if err == nil {
			resp.Body.Close()
		}
		if healthy && run("inspect", "--format", "{{.State.Health.Status}}", id) == "healthy" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not healthy after 90 s; logs:\n%s", run("logs", id))
		}
		time.Sleep(time.Second)
	}
	if user := run("exec", id, "id", "-u"); user == "0" {
		t.Error("the container runs as root")
	}
	run("stop", "-t", "60", id)
	if code := run("inspect", "--format", "{{.State.ExitCode}}", id); code != "0" {
		t.Errorf("exit code %s after stop; logs:\n%s", code, run("logs", id))
	}
}
