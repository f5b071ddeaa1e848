package kubernetes

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

// controllerManifests are the controller group's objects (controller-*.yaml):
// three standalone cmd/controller nodes.
type controllerManifests struct {
	config      corev1.ConfigMap
	headless    corev1.Service
	statefulSet appsv1.StatefulSet
	pdb         policyv1.PodDisruptionBudget
}

// podIndexLabel is the label the StatefulSet controller puts on every pod
// with its ordinal (Kubernetes 1.28 and later).
const podIndexLabel = "metadata.labels['apps.kubernetes.io/pod-index']"

func (m *controllerManifests) container(t *testing.T) corev1.Container {
	t.Helper()
	return onlyContainer(t, m.statefulSet)
}

// confOf is the ConfigMap's controller.conf, the container's -c file.
func (m *controllerManifests) confOf(t *testing.T, c corev1.Container) map[string]string {
	t.Helper()
	text, ok := m.config.Data[path.Base(argValue(t, c, "-c"))]
	if !ok {
		t.Fatalf("ConfigMap %s has no key %s (the -c file)", m.config.Name, path.Base(argValue(t, c, "-c")))
	}
	return properties(t, text)
}

var kubeletVar = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// expand replaces $(NAME) with vars[NAME] as the kubelet does (an unknown
// name stays as written).
func expand(s string, vars map[string]string) string {
	return kubeletVar.ReplaceAllStringFunc(s, func(ref string) string {
		if v, ok := vars[kubeletVar.FindStringSubmatch(ref)[1]]; ok {
			return v
		}
		return ref
	})
}

// podArgs are the container's args as the kubelet gives them to pod ordinal
// in namespace: the env resolved in order (the downward API fields from the
// pod), then the args expanded with it.
func podArgs(t *testing.T, c corev1.Container, namespace string, ordinal int) []string {
	t.Helper()
	fields := map[string]string{"metadata.namespace": namespace, podIndexLabel: strconv.Itoa(ordinal)}
	vars := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom != nil && e.ValueFrom.FieldRef != nil:
			v, ok := fields[e.ValueFrom.FieldRef.FieldPath]
			if !ok {
				t.Fatalf("env %s from field %s, which the test does not know", e.Name, e.ValueFrom.FieldRef.FieldPath)
			}
			vars[e.Name] = v
		case e.ValueFrom == nil:
			vars[e.Name] = expand(e.Value, vars)
		}
	}
	var args []string
	for _, a := range c.Args {
		args = append(args, expand(a, vars))
	}
	return args
}

// TestControllerGroupManifests: three nodes started together behind a
// headless Service that publishes them before they are ready; each node's id
// is n<ordinal> from the pod-index label and the peers are the Service's names
// on the container's ports; the conf's keys are the controller's, its store on
// the claim; probes, security and the PDB keep a quorum.
func TestControllerGroupManifests(t *testing.T) {
	m := load(t).controller
	sts, svc, c := m.statefulSet, m.headless, m.container(t)
	pod := sts.Spec.Template
	replicas := int(*sts.Spec.Replicas)
	if replicas != 3 || sts.Spec.PodManagementPolicy != appsv1.ParallelPodManagement {
		t.Errorf("replicas %d policy %q: want 3 started in parallel (a node is ready only once a quorum elected a leader)", replicas, sts.Spec.PodManagementPolicy)
	}
	if !selects(sts.Spec.Selector.MatchLabels, pod.Labels) || !selects(svc.Spec.Selector, pod.Labels) || !selects(m.pdb.Spec.Selector.MatchLabels, pod.Labels) {
		t.Errorf("selectors %v, %v, %v do not all match the pod labels %v", sts.Spec.Selector.MatchLabels, svc.Spec.Selector, m.pdb.Spec.Selector.MatchLabels, pod.Labels)
	}
	if sts.Spec.ServiceName != svc.Name || svc.Spec.ClusterIP != corev1.ClusterIPNone || !svc.Spec.PublishNotReadyAddresses {
		t.Errorf("serviceName %q, Service %q clusterIP %q publishNotReadyAddresses %v: want a headless Service publishing not-ready nodes",
			sts.Spec.ServiceName, svc.Name, svc.Spec.ClusterIP, svc.Spec.PublishNotReadyAddresses)
	}
	checkServicePorts(t, svc, c)
	if len(c.Command) != 1 || c.Command[0] != "/usr/local/bin/controller" {
		t.Errorf("command %v, want /usr/local/bin/controller", c.Command)
	}
	containerfile, err := os.ReadFile(filepath.Join(repo.Root(t), "deploy", "container", "Containerfile"))
	if err != nil || !strings.Contains(string(containerfile), "./cmd/controller") || !strings.Contains(string(containerfile), "/out/controller") {
		t.Errorf("the image (deploy/container/Containerfile) does not build and copy cmd/controller: %v", err)
	}

	conf := m.confOf(t, c)
	known := repo.ControllerConfigKeys(t)
	for key := range conf {
		if !known[key] {
			t.Errorf("controller.conf key %s is not a controller config key", key)
		}
	}
	for _, key := range []string{"controllerDLegerSelfId", "controllerDLegerPeers"} {
		if _, ok := conf[key]; ok {
			t.Errorf("controller.conf sets %s, which the args give per pod", key)
		}
	}
	offset, err := strconv.Atoi(conf["controllerRaftPortOffset"])
	if err != nil {
		t.Fatalf("controllerRaftPortOffset %q not set explicitly", conf["controllerRaftPortOffset"])
	}
	remotingPort := containerPort(c, "remoting")
	if containerPort(c, "raft") != remotingPort+int32(offset) || strconv.Itoa(int(containerPort(c, "http"))) != conf["httpListenPort"] {
		t.Errorf("container ports %v: raft is not remoting + %d, or http is not httpListenPort=%s", c.Ports, offset, conf["httpListenPort"])
	}

	for i := range replicas {
		args := podArgs(t, c, "ns1", i)
		if got := argValue(t, corev1.Container{Args: args}, "-controllerDLegerSelfId"); got != "n"+strconv.Itoa(i) {
			t.Errorf("pod %d: controllerDLegerSelfId %q, want n%d", i, got, i)
		}
		var want []string
		for j := range replicas {
			want = append(want, fmt.Sprintf("n%d-%s-%d.%s.ns1.svc.cluster.local:%d", j, sts.Name, j, svc.Name, remotingPort))
		}
		if got := argValue(t, corev1.Container{Args: args}, "-controllerDLegerPeers"); got != strings.Join(want, ";") {
			t.Errorf("pod %d: controllerDLegerPeers %q, want %q", i, got, strings.Join(want, ";"))
		}
	}
	if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool {
		return e.Name == "POD_INDEX" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == podIndexLabel
	}) {
		t.Error("POD_INDEX is not the pod-index label")
	}

	mounts := map[string]corev1.VolumeMount{}
	for _, vm := range c.VolumeMounts {
		mounts[vm.MountPath] = vm
	}
	cfgMount, ok := mounts[path.Dir(argValue(t, c, "-c"))]
	if vol := volume(pod.Spec.Volumes, cfgMount.Name); !ok || !cfgMount.ReadOnly || vol == nil || vol.ConfigMap == nil || vol.ConfigMap.Name != m.config.Name {
		t.Errorf("the -c file's folder is not the ConfigMap %s mounted read-only: %v", m.config.Name, c.VolumeMounts)
	}
	for _, key := range []string{"controllerStorePath", "configStorePath"} {
		dir := conf[key]
		if key == "configStorePath" {
			dir = path.Dir(dir)
		}
		dataMount, ok := mounts[dir]
		if !ok || !slices.ContainsFunc(sts.Spec.VolumeClaimTemplates, func(p corev1.PersistentVolumeClaim) bool { return p.Name == dataMount.Name }) {
			t.Errorf("%s=%s is not on a volume claim template", key, conf[key])
		}
	}
	if tmp, ok := mounts["/tmp"]; !ok || tmp.ReadOnly || volume(pod.Spec.Volumes, tmp.Name) == nil || volume(pod.Spec.Volumes, tmp.Name).EmptyDir == nil {
		t.Error("no writable emptyDir on /tmp for the listener (the root file system is read-only)")
	}

	for _, pr := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"liveness", c.LivenessProbe, "/healthz"}, {"readiness", c.ReadinessProbe, "/readyz"}} {
		if pr.probe == nil || pr.probe.HTTPGet == nil || pr.probe.HTTPGet.Path != pr.path || pr.probe.HTTPGet.Port.String() != "http" {
			t.Errorf("%s probe %+v: want httpGet %s on the http port", pr.name, pr.probe, pr.path)
		}
	}
	if sc := c.SecurityContext; sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Error("the container may escalate privileges")
	}
	if psc := pod.Spec.SecurityContext; psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Error("the pod may run as root")
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources incomplete: %+v", c.Resources)
	}
	// cmd/controller's graceful stop: at most 15 s.
	if g := pod.Spec.TerminationGracePeriodSeconds; g == nil || *g < 15 {
		t.Error("terminationGracePeriodSeconds unset or below cmd/controller's 15 s stop")
	}

	// Voluntary disruptions leave a quorum (a majority of the nodes).
	mu := m.pdb.Spec.MaxUnavailable
	if mu == nil || mu.Type != intstr.Int || replicas-int(mu.IntVal) < replicas/2+1 {
		t.Errorf("PDB maxUnavailable %v of %d nodes: a drain could take the quorum", mu, replicas)
	}
}

// TestControllerBinaryTakesThePodArgs runs the real cmd/controller with each
// pod's args as the kubelet expands them (the ConfigMap file in place of its
// mount) and -p: the settings validate (the self id is among the peers) and
// the effective config has the ConfigMap's values.
func TestControllerBinaryTakesThePodArgs(t *testing.T) {
	m := load(t).controller
	c := m.container(t)
	local := filepath.Join(t.TempDir(), "controller.conf")
	if err := os.WriteFile(local, []byte(m.config.Data[path.Base(argValue(t, c, "-c"))]), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range int(*m.statefulSet.Spec.Replicas) {
		args := podArgs(t, c, "default", i)
		args[slices.Index(args, "-c")+1] = local
		out, err := exec.Command(repo.Binary(t, "controller"), append(args, "-p")...).CombinedOutput()
		if err != nil {
			t.Fatalf("pod %d: controller %v -p: %v\n%s", i, args, err, out)
		}
		printed := "\n" + string(out)
		for key, value := range m.confOf(t, c) {
			if !strings.Contains(printed, "\n"+key+"="+value+"\n") {
				t.Errorf("pod %d: effective config lacks %s=%s", i, key, value)
			}
		}
		if !strings.Contains(printed, "\ncontrollerDLegerSelfId=n"+strconv.Itoa(i)+"\n") {
			t.Errorf("pod %d: effective config lacks controllerDLegerSelfId=n%d:\n%s", i, i, out)
		}
	}
}

// TestControllerGroupFromThePodArgsElectsALeader starts the three nodes with
// their pods' args on loopback, the Service names replaced by 127.0.0.1 and,
// all three sharing one host, the ports by free ones (the peer ports and,
// past them, the Raft ports at the same controllerRaftPortOffset; the side
// ports with -httpListenPort): every node's /readyz, the readiness probe,
// turns 200 once they have elected a leader.
func TestControllerGroupFromThePodArgsElectsALeader(t *testing.T) {
	m := load(t).controller
	c := m.container(t)
	conf := m.confOf(t, c)
	offset, _ := strconv.Atoi(conf["controllerRaftPortOffset"])
	replicas := int(*m.statefulSet.Spec.Replicas)
	dir := t.TempDir()
	local := filepath.Join(dir, "controller.conf")
	if err := os.WriteFile(local, []byte(m.config.Data[path.Base(argValue(t, c, "-c"))]), 0o644); err != nil {
		t.Fatal(err)
	}
	peerPorts, httpPorts := make([]int, replicas), make([]int, replicas)
	for i := range replicas {
		peerPorts[i], httpPorts[i] = repo.FreePort(t, offset), repo.FreePort(t, 0)
	}
	hostOf := regexp.MustCompile(`n(\d+)-[^;]+:` + strconv.Itoa(int(containerPort(c, "remoting"))))
	for i := range replicas {
		args := podArgs(t, c, "default", i)
		args[slices.Index(args, "-c")+1] = local
		peers := slices.Index(args, "-controllerDLegerPeers") + 1
		args[peers] = hostOf.ReplaceAllStringFunc(args[peers], func(item string) string {
			j, _ := strconv.Atoi(hostOf.FindStringSubmatch(item)[1])
			return fmt.Sprintf("n%d-127.0.0.1:%d", j, peerPorts[j])
		})
		store := filepath.Join(dir, "node"+strconv.Itoa(i))
		args = append(args, "-httpListenPort", strconv.Itoa(httpPorts[i]), "-controllerStorePath", store,
			"-configStorePath", filepath.Join(store, "controller.properties"), "-logFormat", "text")
		cmd := exec.Command(repo.Binary(t, "controller"), args...)
		logFile, err := os.Create(filepath.Join(dir, "node"+strconv.Itoa(i)+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = logFile, logFile
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			_ = logFile.Close()
			if t.Failed() {
				out, _ := os.ReadFile(logFile.Name())
				t.Logf("node %d log:\n%s", i, out)
			}
		})
	}
	client := &http.Client{Timeout: 2 * time.Second}
	for i, port := range httpPorts {
		url := "http://127.0.0.1:" + strconv.Itoa(port) + c.ReadinessProbe.HTTPGet.Path
		var last string
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			resp, err := client.Get(url)
			if err == nil {
				_ = resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
				last = resp.Status
			} else {
				last = err.Error()
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %d: %s never 200 (last: %s)", i, url, last)
			}
		}
	}
}
