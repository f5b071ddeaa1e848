package kubernetes

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// Kustomization is the part of kustomize.config.k8s.io/v1beta1 Kustomization
// these folders use (its type is not in k8s.io/api): decoded strictly, so a
// misspelt field (newtag) fails here instead of being ignored by kustomize.
type Kustomization struct {
	metav1.TypeMeta `json:",inline"`
	Resources       []string         `json:"resources"`
	Images          []KustomizeImage `json:"images"`
}

// KustomizeImage replaces the image of every container whose image has
// Name (any tag) by NewName:NewTag (or NewName@Digest).
type KustomizeImage struct {
	Name    string `json:"name"`
	NewName string `json:"newName,omitempty"`
	NewTag  string `json:"newTag,omitempty"`
	Digest  string `json:"digest,omitempty"`
}

// kustomizeDirs are the folders applied with kubectl apply -k, each with
// the StatefulSet whose image it pins.
var kustomizeDirs = []string{".", "controller"}

func loadKustomization(t *testing.T, dir string) Kustomization {
	t.Helper()
	var k Kustomization
	if err := decodeStrict(filepath.Join(dir, "kustomization.yaml"), "kustomize.config.k8s.io/v1beta1", "Kustomization", &k, &k.TypeMeta); err != nil {
		t.Fatal(err)
	}
	return k
}

// imageName is an image reference without its tag or digest.
func imageName(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return ref
}

// imageTag is an image reference's tag, "" when it has none.
func imageTag(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		return ref[i+1:]
	}
	return ""
}

// TestKustomizationsPinTheImage: each folder's kustomization.yaml applies
// every manifest of the folder and pins every image its StatefulSet names
// (images: with a tag other than latest, or a digest), and no manifest names
// a :latest or untagged image. The manifests named gonamesrv:latest, which
// a later kubectl apply put back over a kubectl set image.
func TestKustomizationsPinTheImage(t *testing.T) {
	m := load(t)
	statefulSets := map[string]appsv1.StatefulSet{".": m.statefulSet, "controller": m.controller.statefulSet}
	for _, dir := range kustomizeDirs {
		k := loadKustomization(t, dir)
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range files {
			if filepath.Base(f) != "kustomization.yaml" {
				want = append(want, filepath.Base(f))
			}
		}
		got := slices.Sorted(slices.Values(k.Resources))
		if !slices.Equal(got, want) {
			t.Errorf("%s/kustomization.yaml: resources %v, the folder holds %v", dir, got, want)
		}
		pins := map[string]KustomizeImage{}
		for _, img := range k.Images {
			if img.Digest == "" && (img.NewTag == "" || img.NewTag == "latest") {
				t.Errorf("%s/kustomization.yaml: image %s pinned to tag %q: a release tag or a digest", dir, img.Name, img.NewTag)
			}
			pins[img.Name] = img
		}
		spec := statefulSets[dir].Spec.Template.Spec
		for _, c := range slices.Concat(spec.InitContainers, spec.Containers) {
			if tag := imageTag(c.Image); tag == "" || tag == "latest" {
				t.Errorf("%s: container %s image %q: untagged or :latest", dir, c.Name, c.Image)
			}
			if _, ok := pins[imageName(c.Image)]; !ok {
				t.Errorf("%s: container %s image %q has no images: entry in kustomization.yaml", dir, c.Name, c.Image)
			}
		}
	}
}

// rendered is the StatefulSets' container images kubectl kustomize makes
// of dir.
func rendered(t *testing.T, kubectl, dir string) []string {
	t.Helper()
	out, err := exec.Command(kubectl, "kustomize", dir).Output()
	if err != nil {
		var stderr []byte
		if exit, ok := err.(*exec.ExitError); ok {
			stderr = exit.Stderr
		}
		t.Fatalf("kubectl kustomize %s: %v\n%s", dir, err, stderr)
	}
	var images []string
	for _, doc := range bytes.Split(out, []byte("\n---\n")) {
		var obj struct {
			Kind string `json:"kind"`
			Spec struct {
				Template struct {
					Spec corev1.PodSpec `json:"spec"`
				} `json:"template"`
			} `json:"spec"`
		}
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			t.Fatalf("kubectl kustomize %s: %v", dir, err)
		}
		if obj.Kind == "StatefulSet" {
			for _, c := range obj.Spec.Template.Spec.Containers {
				images = append(images, c.Image)
			}
		}
	}
	return images
}

// TestKustomizeAppliesThePin: kubectl kustomize (what kubectl apply -k
// sends) gives every StatefulSet container the pinned newName:newTag, and a
// newName/newTag set in the file (an operator's registry and release) is
// what it then sends. Skipped without kubectl.
func TestKustomizeAppliesThePin(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl not installed: kubectl kustomize not run (TestKustomizationsPinTheImage checks the files)")
	}
	for _, dir := range kustomizeDirs {
		k := loadKustomization(t, dir)
		want := k.Images[0].NewName + ":" + k.Images[0].NewTag
		if images := rendered(t, kubectl, dir); len(images) == 0 || slices.ContainsFunc(images, func(i string) bool { return i != want }) {
			t.Errorf("kubectl kustomize %s: images %v, want %s", dir, images, want)
		}
		// A copy of the folder with the operator's pin.
		copyDir := t.TempDir()
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if filepath.Base(f) == "kustomization.yaml" {
				raw = bytes.Replace(raw, []byte("newName: "+k.Images[0].NewName), []byte("newName: registry.example.com/rocketmq/gonamesrv"), 1)
				raw = bytes.Replace(raw, []byte("newTag: "+k.Images[0].NewTag), []byte("newTag: v9.8.7"), 1)
			}
			if err := os.WriteFile(filepath.Join(copyDir, filepath.Base(f)), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if images := rendered(t, kubectl, copyDir); len(images) == 0 || slices.ContainsFunc(images, func(i string) bool { return i != "registry.example.com/rocketmq/gonamesrv:v9.8.7" }) {
			t.Errorf("kubectl kustomize of %s with the operator's pin: images %v", dir, images)
		}
	}
}

func TestImageReference(t *testing.T) {
	for ref, want := range map[string][2]string{
		"gonamesrv:dev":                     {"gonamesrv", "dev"},
		"gonamesrv":                         {"gonamesrv", ""},
		"registry:5000/a/gonamesrv:v1":      {"registry:5000/a/gonamesrv", "v1"},
		"registry:5000/a/gonamesrv":         {"registry:5000/a/gonamesrv", ""},
		"gonamesrv:v1@sha256:0123456789abc": {"gonamesrv", "v1"},
	} {
		if n, tag := imageName(ref), imageTag(ref); n != want[0] || tag != want[1] {
			t.Errorf("%s: name %q tag %q, want %q %q", ref, n, tag, want[0], want[1])
		}
	}
}
