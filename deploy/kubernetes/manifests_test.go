package kubernetes

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

// manifests are the objects of this folder, each decoded strictly.
type manifests struct {
	config      corev1.ConfigMap
	headless    corev1.Service
	http        corev1.Service
	statefulSet appsv1.StatefulSet
	pdb         policyv1.PodDisruptionBudget
	monitor     ServiceMonitor
	controller  controllerManifests // controller_test.go
}

// strictUnmarshal decodes YAML as the API server does: duplicate keys
// refused (yaml.YAMLToJSONStrict), then unknown and duplicate fields refused
// with field names matched case-sensitively (sigs.k8s.io/json, the
// apimachinery's decoder). yaml.UnmarshalStrict alone goes through
// encoding/json, which takes "clusterIp" for clusterIP without a word.
func strictUnmarshal(raw []byte, obj any) error {
	js, err := yaml.YAMLToJSONStrict(raw)
	if err != nil {
		return err
	}
	strict, err := kjson.UnmarshalStrict(js, obj, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

// decodeStrict reads one manifest into obj (strictUnmarshal) and checks its
// apiVersion and kind.
func decodeStrict(file, apiVersion, kind string, obj any, meta *metav1.TypeMeta) error {
	raw, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := strictUnmarshal(raw, obj); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if meta.APIVersion != apiVersion || meta.Kind != kind {
		return fmt.Errorf("%s: %s %s, want %s %s", file, meta.APIVersion, meta.Kind, apiVersion, kind)
	}
	return nil
}

func load(t *testing.T) *manifests {
	t.Helper()
	m := &manifests{}
	for _, f := range []struct {
		file, apiVersion, kind string
		obj                    any
		meta                   *metav1.TypeMeta
	}{
		{"namesrv-configmap.yaml", "v1", "ConfigMap", &m.config, &m.config.TypeMeta},
		{"namesrv-service.yaml", "v1", "Service", &m.headless, &m.headless.TypeMeta},
		{"namesrv-http-service.yaml", "v1", "Service", &m.http, &m.http.TypeMeta},
		{"namesrv-statefulset.yaml", "apps/v1", "StatefulSet", &m.statefulSet, &m.statefulSet.TypeMeta},
		{"namesrv-pdb.yaml", "policy/v1", "PodDisruptionBudget", &m.pdb, &m.pdb.TypeMeta},
		{"prometheus-operator/namesrv-servicemonitor.yaml", "monitoring.coreos.com/v1", "ServiceMonitor", &m.monitor, &m.monitor.TypeMeta},
		{"controller/controller-configmap.yaml", "v1", "ConfigMap", &m.controller.config, &m.controller.config.TypeMeta},
		{"controller/controller-service.yaml", "v1", "Service", &m.controller.headless, &m.controller.headless.TypeMeta},
		{"controller/controller-statefulset.yaml", "apps/v1", "StatefulSet", &m.controller.statefulSet, &m.controller.statefulSet.TypeMeta},
		{"controller/controller-pdb.yaml", "policy/v1", "PodDisruptionBudget", &m.controller.pdb, &m.controller.pdb.TypeMeta},
	} {
		if err := decodeStrict(f.file, f.apiVersion, f.kind, f.obj, f.meta); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestEveryManifestIsChecked: no YAML file of the folder escapes the strict decode.
func TestEveryManifestIsChecked(t *testing.T) {
	load(t)
	var found []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			found = append(found, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	want := []string{"controller/controller-configmap.yaml", "controller/controller-pdb.yaml", "controller/controller-service.yaml", "controller/controller-statefulset.yaml",
		"controller/kustomization.yaml", "kustomization.yaml",
		"namesrv-configmap.yaml", "namesrv-http-service.yaml", "namesrv-pdb.yaml", "namesrv-service.yaml",
		"namesrv-statefulset.yaml", "prometheus-operator/namesrv-servicemonitor.yaml"}
	for _, dir := range kustomizeDirs {
		loadKustomization(t, dir) // kustomization_test.go
	}
	if !slices.Equal(found, want) {
		t.Fatalf("manifests %v, the test decodes %v: add the new file to load", found, want)
	}
}

// TestStrictDecodeRefusesUnknownFields: a misspelt field fails the decode
// (the check the other tests stand on).
func TestStrictDecodeRefusesUnknownFields(t *testing.T) {
	for _, bad := range []string{
		"apiVersion: v1\nkind: Service\nspec:\n  clusterIp: None\n",
		"apiVersion: v1\nkind: Service\nspec:\n  clusterAddress: None\n",
		"apiVersion: v1\nkind: Service\nkind: Service\n",
	} {
		var svc corev1.Service
		if err := strictUnmarshal([]byte(bad), &svc); err == nil {
			t.Errorf("%q decoded without error", bad)
		}
	}
	var sm ServiceMonitor
	if err := strictUnmarshal([]byte("spec:\n  endpoints:\n  - port: http\n    scrapeTimeout: 5s\n"), &sm); err == nil {
		t.Fatal("a ServiceMonitor field outside the local struct decoded without error")
	}
}

// properties parses the ConfigMap's namesrv.properties (key=value lines,
// # and ! comments), failing on a line that is neither.
func properties(t *testing.T, text string) map[string]string {
	t.Helper()
	props := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "!") {
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("namesrv.properties line %d is not key=value: %q", i+1, line)
		}
		props[strings.TrimSpace(key)] = strings.TrimSpace(value)
	}
	return props
}

func (m *manifests) container(t *testing.T) corev1.Container {
	t.Helper()
	return onlyContainer(t, m.statefulSet)
}

// onlyContainer is the one container of sts's pods.
func onlyContainer(t *testing.T, sts appsv1.StatefulSet) corev1.Container {
	t.Helper()
	cs := sts.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		t.Fatalf("StatefulSet %s: %d containers, want one", sts.Name, len(cs))
	}
	return cs[0]
}

// argValue is the value following flag in the container's args.
func argValue(t *testing.T, c corev1.Container, flag string) string {
	t.Helper()
	i := slices.Index(c.Args, flag)
	if i < 0 || i+1 >= len(c.Args) {
		t.Fatalf("args %v have no %s VALUE", c.Args, flag)
	}
	return c.Args[i+1]
}

// TestConfigMapKeysAreRealConfigKeys: every key of the properties file is one
// the binary reads (namesrv/config's prop tags), and the ports are explicit.
func TestConfigMapKeysAreRealConfigKeys(t *testing.T) {
	m := load(t)
	known := repo.ConfigKeys(t)
	c := m.container(t)
	file := argValue(t, c, "-c")
	text, ok := m.config.Data[path.Base(file)]
	if !ok {
		t.Fatalf("ConfigMap %s has no key %s (the -c file)", m.config.Name, path.Base(file))
	}
	props := properties(t, text)
	for key := range props {
		if !known[key] {
			t.Errorf("ConfigMap key %s is not a NameServer config key", key)
		}
	}
	for _, key := range []string{"listenPort", "httpListenPort"} {
		if _, ok := props[key]; !ok {
			t.Errorf("%s not set explicitly: the probes and Services would depend on the binary's default", key)
		}
	}
}

// TestStatefulSetReferences: the -c file is where the ConfigMap is mounted,
// the data folder is on the claim, ports agree with the properties file,
// probes name existing ports on the right paths, and the stop fits the grace period.
func TestStatefulSetReferences(t *testing.T) {
	m := load(t)
	sts := m.statefulSet
	pod := sts.Spec.Template
	c := m.container(t)
	if sts.Spec.Replicas == nil || *sts.Spec.Replicas != 2 {
		t.Fatal("replicas not 2")
	}
	if !selects(sts.Spec.Selector.MatchLabels, pod.Labels) {
		t.Errorf("StatefulSet selector %v does not match pod labels %v", sts.Spec.Selector.MatchLabels, pod.Labels)
	}
	mounts := map[string]corev1.VolumeMount{}
	for _, vm := range c.VolumeMounts {
		mounts[vm.MountPath] = vm
	}
	cfgMount, ok := mounts[path.Dir(argValue(t, c, "-c"))]
	if !ok || !cfgMount.ReadOnly {
		t.Fatalf("the -c file's folder is not a read-only mount: %v", c.VolumeMounts)
	}
	vol := volume(pod.Spec.Volumes, cfgMount.Name)
	if vol == nil || vol.ConfigMap == nil || vol.ConfigMap.Name != m.config.Name {
		t.Errorf("mount %s is not the ConfigMap %s: %+v", cfgMount.Name, m.config.Name, vol)
	}
	dataMount, ok := mounts[argValue(t, c, "-data")]
	if !ok || !slices.ContainsFunc(sts.Spec.VolumeClaimTemplates, func(p corev1.PersistentVolumeClaim) bool { return p.Name == dataMount.Name }) {
		t.Errorf("-data %s is not on a volume claim template", argValue(t, c, "-data"))
	}

	props := properties(t, m.config.Data[path.Base(argValue(t, c, "-c"))])
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	for name, key := range map[string]string{"remoting": "listenPort", "http": "httpListenPort"} {
		if strconv.Itoa(int(ports[name])) != props[key] {
			t.Errorf("container port %s is %d, %s=%s", name, ports[name], key, props[key])
		}
	}
	for _, pr := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"liveness", c.LivenessProbe, "/healthz"}, {"readiness", c.ReadinessProbe, "/readyz"}} {
		if pr.probe == nil || pr.probe.HTTPGet == nil {
			t.Errorf("%s probe missing or not httpGet", pr.name)
			continue
		}
		if pr.probe.HTTPGet.Path != pr.path {
			t.Errorf("%s probe on %s, want %s", pr.name, pr.probe.HTTPGet.Path, pr.path)
		}
		if _, ok := ports[portName(pr.probe.HTTPGet.Port)]; !ok || pr.probe.HTTPGet.Port.String() != "http" {
			t.Errorf("%s probe port %s is not the container's http port", pr.name, pr.probe.HTTPGet.Port.String())
		}
	}

	// The stop: GO_AWAY wait plus cmd/namesrv's 30 s for requests in flight.
	wait := 0
	if props["enableShutdownGracefully"] == "true" {
		wait, _ = strconv.Atoi(props["shutdownWaitTimeSeconds"])
	}
	grace := pod.Spec.TerminationGracePeriodSeconds
	if grace == nil || *grace < int64(wait+30) {
		t.Errorf("terminationGracePeriodSeconds unset or below the graceful stop's %d s", wait+30)
	}

	// Resources: set, and requestMemoryLimit under the memory limit.
	limit := c.Resources.Limits[corev1.ResourceMemory]
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || limit.IsZero() {
		t.Errorf("resources incomplete: %+v", c.Resources)
	}
	reqMem, err := strconv.ParseInt(props["requestMemoryLimit"], 10, 64)
	if err != nil || resource.NewQuantity(reqMem, resource.BinarySI).Cmp(limit) >= 0 {
		t.Errorf("requestMemoryLimit %q not below the memory limit %s", props["requestMemoryLimit"], limit.String())
	}
	if sc := c.SecurityContext; sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Error("the container may escalate privileges")
	}
	// With a read-only root, the server's temporary folder (remoting's
	// listener makes one in TMPDIR, /tmp) must be a volume of its own.
	if sc := c.SecurityContext; sc != nil && sc.ReadOnlyRootFilesystem != nil && *sc.ReadOnlyRootFilesystem {
		tmp, ok := mounts["/tmp"]
		if v := volume(pod.Spec.Volumes, tmp.Name); !ok || tmp.ReadOnly || v == nil || v.EmptyDir == nil {
			t.Error("read-only root file system without a writable emptyDir on /tmp: the listener cannot start")
		}
	}
	if psc := pod.Spec.SecurityContext; psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Error("the pod may run as root")
	}
}

// TestStableAddressesForBrokers: the headless Service gives every replica a
// DNS name, and NAMESRV_ADDR (given to -addressServerList) lists exactly them
// on the remoting port.
func TestStableAddressesForBrokers(t *testing.T) {
	m := load(t)
	sts, svc := m.statefulSet, m.headless
	c := m.container(t)
	if sts.Spec.ServiceName != svc.Name || svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Fatalf("serviceName %q, headless Service %q with clusterIP %q", sts.Spec.ServiceName, svc.Name, svc.Spec.ClusterIP)
	}
	if !selects(svc.Spec.Selector, sts.Spec.Template.Labels) {
		t.Errorf("headless Service selector %v does not match pod labels", svc.Spec.Selector)
	}
	var list string
	for _, e := range c.Env {
		if e.Name == "NAMESRV_ADDR" {
			list = e.Value
		}
	}
	var want []string
	for i := 0; i < int(*sts.Spec.Replicas); i++ {
		want = append(want, fmt.Sprintf("%s-%d.%s.$(POD_NAMESPACE).svc:%d", sts.Name, i, svc.Name, containerPort(c, "remoting")))
	}
	if list != strings.Join(want, ";") {
		t.Errorf("NAMESRV_ADDR %q, want %q", list, strings.Join(want, ";"))
	}
	if argValue(t, c, "-addressServerList") != "$(NAMESRV_ADDR)" {
		t.Errorf("-addressServerList is not $(NAMESRV_ADDR)")
	}
	if !slices.ContainsFunc(c.Env, func(e corev1.EnvVar) bool {
		return e.Name == "POD_NAMESPACE" && e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.namespace"
	}) {
		t.Error("POD_NAMESPACE is not the pod's namespace")
	}
	checkServicePorts(t, svc, c)
}

// TestHTTPServiceAndServiceMonitor: the side port's Service selects the pods
// and the ServiceMonitor selects that Service and scrapes a port it has.
func TestHTTPServiceAndServiceMonitor(t *testing.T) {
	m := load(t)
	c := m.container(t)
	if !selects(m.http.Spec.Selector, m.statefulSet.Spec.Template.Labels) {
		t.Errorf("namesrv-http selector %v does not match pod labels", m.http.Spec.Selector)
	}
	checkServicePorts(t, m.http, c)
	if !selects(m.monitor.Spec.Selector.MatchLabels, m.http.Labels) {
		t.Errorf("ServiceMonitor selector %v does not match namesrv-http's labels %v", m.monitor.Spec.Selector.MatchLabels, m.http.Labels)
	}
	if selects(m.monitor.Spec.Selector.MatchLabels, m.headless.Labels) {
		t.Error("the ServiceMonitor also selects the headless Service: every pod would be scraped twice")
	}
	if len(m.monitor.Spec.Endpoints) == 0 {
		t.Fatal("ServiceMonitor has no endpoint")
	}
	for _, ep := range m.monitor.Spec.Endpoints {
		if !slices.ContainsFunc(m.http.Spec.Ports, func(p corev1.ServicePort) bool { return p.Name == ep.Port }) || ep.Path != "/metrics" {
			t.Errorf("ServiceMonitor endpoint %+v: not a named port of namesrv-http on /metrics", ep)
		}
	}
}

// TestPodDisruptionBudget: it selects the pods and lets one go at a time.
func TestPodDisruptionBudget(t *testing.T) {
	m := load(t)
	if !selects(m.pdb.Spec.Selector.MatchLabels, m.statefulSet.Spec.Template.Labels) {
		t.Errorf("PDB selector %v does not match pod labels", m.pdb.Spec.Selector.MatchLabels)
	}
	mu := m.pdb.Spec.MaxUnavailable
	if mu == nil || mu.Type != intstr.Int || mu.IntVal != 1 || int32(1) >= *m.statefulSet.Spec.Replicas {
		t.Errorf("maxUnavailable %v, want 1 of %d replicas", mu, *m.statefulSet.Spec.Replicas)
	}
}

// checkServicePorts: every port of svc targets a named container port.
func checkServicePorts(t *testing.T, svc corev1.Service, c corev1.Container) {
	t.Helper()
	for _, p := range svc.Spec.Ports {
		if containerPort(c, portName(p.TargetPort)) != p.Port {
			t.Errorf("Service %s port %s (%d) targets %q, not a container port of that number", svc.Name, p.Name, p.Port, p.TargetPort.String())
		}
	}
}

func containerPort(c corev1.Container, name string) int32 {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	return -1
}

func portName(p intstr.IntOrString) string {
	if p.Type == intstr.String {
		return p.StrVal
	}
	return ""
}

// selects reports whether every label of selector is on labels (and there is one).
func selects(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return len(selector) > 0
}

func volume(vols []corev1.Volume, name string) *corev1.Volume {
	for i := range vols {
		if vols[i].Name == name {
			return &vols[i]
		}
	}
	return nil
}
