// Package deploy_test checks the deployment files against what docs/operations.md says of them:
// the image is static, distroless and non-root; compose's health check runs `marquee healthcheck`;
// the Kubernetes manifests run 2 probed replicas under a PodDisruptionBudget and migrate in a Job.
// Docker is not needed: the binary is built with the Dockerfile's own go build line.
package deploy_test

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// dockerfile is deploy/Dockerfile split into stages of instructions (continuation lines joined).
type stage struct {
	from  string
	instr []string // "ENV CGO_ENABLED=0 ...", "RUN go build ..."
}

func readDockerfile(t *testing.T) []stage {
	t.Helper()
	raw, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var stages []stage
	sc := bufio.NewScanner(bytes.NewReader(raw))
	line := ""
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "#") || (l == "" && line == "") {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			line += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		line += l
		if strings.HasPrefix(line, "FROM ") {
			stages = append(stages, stage{from: line})
		} else if line != "" {
			if len(stages) == 0 {
				t.Fatalf("instruction before FROM: %s", line)
			}
			stages[len(stages)-1].instr = append(stages[len(stages)-1].instr, line)
		}
		line = ""
	}
	if len(stages) == 0 {
		t.Fatal("no FROM in the Dockerfile")
	}
	return stages
}

// words splits a shell command line on spaces, keeping double-quoted parts whole (the Dockerfile's
// go build line needs no more).
func words(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, has := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, has = !quoted, true
		case r == ' ' && !quoted:
			if has {
				out = append(out, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}

func TestImageIsStaticDistrolessAndNonRoot(t *testing.T) {
	t.Parallel()
	stages := readDockerfile(t)
	final := stages[len(stages)-1]
	if !strings.Contains(final.from, "gcr.io/distroless/static") || !strings.HasSuffix(final.from, ":nonroot") {
		t.Errorf("the final stage must be distroless/static:nonroot, got %q", final.from)
	}
	var user string
	for _, in := range final.instr {
		if strings.HasPrefix(in, "RUN ") || strings.HasPrefix(in, "SHELL ") {
			t.Errorf("the final stage has no shell, so it cannot RUN: %q", in)
		}
		if strings.HasPrefix(in, "USER ") {
			user = strings.TrimPrefix(in, "USER ")
		}
		if strings.HasPrefix(in, "ENTRYPOINT ") && in != `ENTRYPOINT ["/marquee"]` {
			t.Errorf("the entrypoint must be the exec form [\"/marquee\"] (no shell), got %q", in)
		}
	}
	// Numeric, or Kubernetes' runAsNonRoot refuses to start the pod ("non-numeric user").
	if user != "65532:65532" {
		t.Errorf("USER must be distroless's numeric nonroot 65532:65532, got %q", user)
	}

	// The web stage builds on a maintained Node LTS: an even major from 22 on (Node 20's life
	// ended in April 2026, so it gets no security fixes).
	var node string
	for _, st := range stages {
		if img, ok := strings.CutPrefix(st.from, "FROM node:"); ok {
			node, _, _ = strings.Cut(img, "-")
		}
	}
	if major, err := strconv.Atoi(strings.Split(node, ".")[0]); err != nil || major < 22 || major%2 != 0 {
		t.Errorf("the web stage must build on a maintained Node LTS (22, 24...), got node:%s", node)
	}

	// The go build stage: cgo off, and its go build line.
	var env map[string]string
	var build []string
	for _, st := range stages {
		for _, in := range st.instr {
			if strings.HasPrefix(in, "ENV ") && strings.Contains(in, "CGO_ENABLED") {
				env = map[string]string{}
				for _, kv := range words(strings.TrimPrefix(in, "ENV ")) {
					k, v, _ := strings.Cut(kv, "=")
					env[k] = v
				}
			}
			if strings.HasPrefix(in, "RUN go build ") {
				build = words(strings.TrimPrefix(in, "RUN "))
			}
		}
	}
	if env["CGO_ENABLED"] != "0" {
		t.Fatalf("the build stage must set CGO_ENABLED=0, got %v", env)
	}
	if build == nil {
		t.Fatal("no RUN go build line in the Dockerfile")
	}
	bin := filepath.Join(t.TempDir(), "marquee")
	for i, w := range build {
		w = strings.ReplaceAll(w, "${VERSION}", "test")
		if i > 0 && build[i-1] == "-o" {
			w = bin
		}
		build[i] = w
	}
	cmd := exec.Command(build[0], build[1:]...)
	cmd.Dir = ".." // the Dockerfile builds from the repository root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(build, " "), err, out)
	}

	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the binary has a %v program header: it is dynamically linked", p.Type)
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		t.Errorf("read the imported libraries: %v", err)
	} else if len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v", libs)
	}
	if s := f.Section(".interp"); s != nil {
		t.Error("the binary has an .interp section")
	}
}

// The compose and Kubernetes files, decoded just enough to check them.
type container struct {
	Name           string   `yaml:"name"`
	Image          string   `yaml:"image"`
	Args           []string `yaml:"args"`
	ReadinessProbe *probe   `yaml:"readinessProbe"`
	LivenessProbe  *probe   `yaml:"livenessProbe"`
	EnvFrom        []struct {
		ConfigMapRef *struct {
			Name string `yaml:"name"`
		} `yaml:"configMapRef"`
	} `yaml:"envFrom"`
}

type probe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port any    `yaml:"port"`
	} `yaml:"httpGet"`
}

type podSpec struct {
	InitContainers []container `yaml:"initContainers"`
	Containers     []container `yaml:"containers"`
	RestartPolicy  string      `yaml:"restartPolicy"`
	Security       struct {
		RunAsNonRoot bool `yaml:"runAsNonRoot"`
		RunAsUser    int  `yaml:"runAsUser"`
	} `yaml:"securityContext"`
}

type object struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Data map[string]string `yaml:"data"`
	Spec struct {
		Replicas     *int `yaml:"replicas"`
		MinAvailable any  `yaml:"minAvailable"`
		Selector     struct {
			MatchLabels map[string]string `yaml:"matchLabels"`
		} `yaml:"selector"`
		Template struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// decodeAll decodes every YAML document of path; a syntax error, a document that is not a
// mapping, or one without kind, apiVersion and name fails the test.
func decodeAll(t *testing.T, path string) []object {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	var out []object
	for {
		var o object
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if o.Kind == "" || o.APIVersion == "" || o.Metadata.Name == "" {
			t.Fatalf("%s: a document without kind, apiVersion or name: %+v", path, o)
		}
		out = append(out, o)
	}
}

func TestKubernetesManifests(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("k8s/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/k8s: %v", err)
	}
	byKind := map[string][]object{}
	for _, f := range files {
		for _, o := range decodeAll(t, f) {
			byKind[o.Kind] = append(byKind[o.Kind], o)
		}
	}
	one := func(kind string) object {
		t.Helper()
		if len(byKind[kind]) != 1 {
			t.Fatalf("want one %s, got %d", kind, len(byKind[kind]))
		}
		return byKind[kind][0]
	}

	dep := one("Deployment")
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 2 {
		t.Errorf("the Deployment must run 2 replicas, got %v", dep.Spec.Replicas)
	}
	pod := dep.Spec.Template.Spec
	if len(pod.InitContainers) > 0 {
		t.Errorf("migrations run in the Job, not in an init container of every pod: %+v", pod.InitContainers)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("want one app container, got %d", len(pod.Containers))
	}
	app := pod.Containers[0]
	if !slices.Equal(app.Args, []string{"serve"}) {
		t.Errorf("the app container runs %v, want [serve]", app.Args)
	}
	if app.ReadinessProbe == nil || app.ReadinessProbe.HTTPGet == nil || app.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Errorf("the readiness probe must GET /readyz: %+v", app.ReadinessProbe)
	}
	if app.LivenessProbe == nil || app.LivenessProbe.HTTPGet == nil || app.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Errorf("the liveness probe must GET /healthz: %+v", app.LivenessProbe)
	}
	if !pod.Security.RunAsNonRoot || pod.Security.RunAsUser != 65532 {
		t.Errorf("the pod must run as the image's non-root user 65532: %+v", pod.Security)
	}
	labels := dep.Spec.Template.Metadata.Labels
	for k, v := range dep.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the Deployment's selector %s=%s does not match its pods' labels %v", k, v, labels)
		}
	}

	pdb := one("PodDisruptionBudget")
	if pdb.APIVersion != "policy/v1" || pdb.Spec.MinAvailable != 1 {
		t.Errorf("want a policy/v1 PodDisruptionBudget with minAvailable 1, got %s %v", pdb.APIVersion, pdb.Spec.MinAvailable)
	}
	for k, v := range pdb.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the PodDisruptionBudget's selector %s=%s does not select the app's pods %v", k, v, labels)
		}
	}

	job := one("Job")
	jp := job.Spec.Template.Spec
	if len(jp.Containers) != 1 || !slices.Equal(jp.Containers[0].Args, []string{"migrate"}) {
		t.Errorf("the Job must run `marquee migrate`: %+v", jp.Containers)
	}
	if jp.RestartPolicy != "Never" && jp.RestartPolicy != "OnFailure" {
		t.Errorf("a Job's pods need restartPolicy Never or OnFailure, got %q", jp.RestartPolicy)
	}
	if jp.Containers[0].Image != app.Image {
		t.Errorf("the Job runs image %q, the Deployment %q", jp.Containers[0].Image, app.Image)
	}

	// serve must not migrate: the ConfigMap both use says so.
	cm := one("ConfigMap")
	if cm.Data["MIGRATE_ON_START"] != "false" {
		t.Errorf("the ConfigMap must set MIGRATE_ON_START=false, got %q", cm.Data["MIGRATE_ON_START"])
	}
	for _, c := range []container{app, jp.Containers[0]} {
		uses := false
		for _, e := range c.EnvFrom {
			uses = uses || (e.ConfigMapRef != nil && e.ConfigMapRef.Name == cm.Metadata.Name)
		}
		if !uses {
			t.Errorf("container %s does not read the ConfigMap %s", c.Name, cm.Metadata.Name)
		}
	}
	one("Service")
}

func TestComposeHealthCheckRunsTheBinary(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Services map[string]struct {
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	got := c.Services["app"].Healthcheck.Test
	if !slices.Equal(got, []string{"CMD", "/marquee", "healthcheck"}) {
		t.Errorf("the app's health check must be [CMD /marquee healthcheck] (no shell in the image), got %v", got)
	}
}
