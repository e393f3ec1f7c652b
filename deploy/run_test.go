package deploy_test

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"marquee/platform/testkit"
)

// manifests are the Kubernetes objects of deploy/k8s (and the example Secret), decoded strictly
// against the Kubernetes API types: an unknown or misplaced field, a duplicate key or a wrong type
// fails, as `kubectl apply --validate=strict` would.
type manifests struct {
	deployments []*appsv1.Deployment
	jobs        []*batchv1.Job
	configMaps  map[string]*corev1.ConfigMap
	secrets     map[string]*corev1.Secret
	other       []runtime.Object
}

func decodeStrict(t *testing.T, patterns ...string) manifests {
	t.Helper()
	dec := strictDecoder(t)
	m := manifests{configMaps: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{}}
	var files []string
	for _, p := range patterns {
		matched, err := filepath.Glob(p)
		if err != nil || len(matched) == 0 {
			t.Fatalf("no manifests match %s: %v", p, err)
		}
		files = append(files, matched...)
	}
	for _, file := range files {
		raw, err := os.ReadFile(file) // #nosec G304 -- the repository's own manifests
		if err != nil {
			t.Fatal(err)
		}
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(raw)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if onlyComments(doc) {
				continue
			}
			obj, _, err := dec.Decode(doc, nil, nil)
			if err != nil {
				t.Fatalf("%s: strict decode against the Kubernetes API types: %v", file, err)
			}
			switch o := obj.(type) {
			case *appsv1.Deployment:
				m.deployments = append(m.deployments, o)
			case *batchv1.Job:
				m.jobs = append(m.jobs, o)
			case *corev1.ConfigMap:
				m.configMaps[o.Name] = o
			case *corev1.Secret:
				m.secrets[o.Name] = o
			default:
				m.other = append(m.other, obj)
			}
		}
	}
	return m
}

// strictDecoder decodes the kinds deploy/k8s uses, refusing unknown and duplicate fields.
func strictDecoder(t *testing.T) runtime.Decoder {
	t.Helper()
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{appsv1.AddToScheme, batchv1.AddToScheme, corev1.AddToScheme, policyv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	return serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
}

func onlyComments(doc []byte) bool {
	for _, l := range strings.Split(string(doc), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && l != "---" {
			return false
		}
	}
	return true
}

func TestManifestsDecodeStrictly(t *testing.T) {
	t.Parallel()
	m := decodeStrict(t, "k8s/*.yaml", "k8s/examples/*.yaml")
	if len(m.deployments) != 1 || len(m.jobs) != 1 || len(m.configMaps) != 1 || len(m.secrets) != 1 || len(m.other) != 2 {
		t.Fatalf("want a Deployment, a Job, a ConfigMap, a Secret, a Service and a PodDisruptionBudget; got %d, %d, %d, %d and %d others",
			len(m.deployments), len(m.jobs), len(m.configMaps), len(m.secrets), len(m.other))
	}
	// The decoder must refuse what a typo makes of a manifest: the check above is only worth
	// something if it can fail.
	raw, err := os.ReadFile("k8s/migrate-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, typo := range [][2]string{{"restartPolicy:", "restartPolicyy:"}, {"backoffLimit: 3", "backoffLimit: three"}} {
		doc := bytes.Replace(raw, []byte(typo[0]), []byte(typo[1]), 1)
		if _, _, err := strictDecoder(t).Decode(doc, nil, nil); err == nil {
			t.Errorf("%q decoded without an error", typo[1])
		}
	}
	if _, _, err := strictDecoder(t).Decode(raw, nil, nil); err != nil {
		t.Fatalf("the Job itself: %v", err)
	}
}

// containerEnv is the environment Kubernetes gives a container: the image's ENV, then envFrom in
// order (a later source wins), then env (which wins over envFrom).
func containerEnv(t *testing.T, m manifests, image map[string]string, c corev1.Container) map[string]string {
	t.Helper()
	env := map[string]string{}
	for k, v := range image {
		env[k] = v
	}
	for _, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil:
			cm, ok := m.configMaps[from.ConfigMapRef.Name]
			if !ok {
				t.Fatalf("container %s reads ConfigMap %s, which no manifest defines", c.Name, from.ConfigMapRef.Name)
			}
			for k, v := range cm.Data {
				env[from.Prefix+k] = v
			}
		case from.SecretRef != nil:
			s, ok := m.secrets[from.SecretRef.Name]
			if !ok {
				t.Fatalf("container %s reads Secret %s, which no manifest defines", c.Name, from.SecretRef.Name)
			}
			for k, v := range s.Data {
				env[from.Prefix+k] = string(v)
			}
			for k, v := range s.StringData {
				env[from.Prefix+k] = v
			}
		}
	}
	for _, e := range c.Env {
		if e.ValueFrom != nil {
			t.Fatalf("container %s: env %s uses valueFrom, which this test does not resolve", c.Name, e.Name)
		}
		env[e.Name] = e.Value
	}
	return env
}

// imageEnv is the ENV of the Dockerfile's final stage.
func imageEnv(t *testing.T) map[string]string {
	t.Helper()
	stages := readDockerfile(t)
	env := map[string]string{}
	for _, in := range stages[len(stages)-1].instr {
		if rest, ok := strings.CutPrefix(in, "ENV "); ok {
			for _, kv := range words(rest) {
				k, v, _ := strings.Cut(kv, "=")
				env[k] = v
			}
		}
	}
	return env
}

// readOnlyDataDir is a DATA_DIR where nothing can be written: a directory without write
// permission, or, for root (who writes anywhere), a path below a regular file, which no mkdir or
// create gets through.
func readOnlyDataDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() == 0 {
		file := filepath.Join(dir, "not-a-directory")
		if err := os.WriteFile(file, nil, 0o400); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(file, "data")
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(data, 0o700) }) // #nosec G302 -- so that the test's cleanup can remove it
	return data
}

// TestManifestsStartMarquee runs the real binary the way deploy/k8s does, so the manifests are
// proved to start it: the Job's `marquee migrate`, then the Deployment's `marquee serve`, each with
// the environment the manifests give its container (image ENV, Secret, ConfigMap, env), on
// PostgreSQL and an S3 peer, with a DATA_DIR where nothing can be written and only TMPDIR writable.
// Only the addresses of the outside services are replaced by the test's, and each of them must be
// named by the manifests. Then a user signs in and uploads a creative, which waits in TMPDIR while
// it is checked.
func TestManifestsStartMarquee(t *testing.T) {
	dbURL := testkit.PostgresURL(t)
	bin := testkit.Binary(t)
	m := decodeStrict(t, "k8s/*.yaml", "k8s/examples/*.yaml")
	if len(m.deployments) != 1 || len(m.jobs) != 1 {
		t.Fatalf("want one Deployment and one Job, got %d and %d", len(m.deployments), len(m.jobs))
	}
	image := imageEnv(t)
	appEnv := containerEnv(t, m, image, m.deployments[0].Spec.Template.Spec.Containers[0])
	jobEnv := containerEnv(t, m, image, m.jobs[0].Spec.Template.Spec.Containers[0])

	s3 := httptest.NewServer(gofakes3.New(s3mem.New()).Server())
	t.Cleanup(s3.Close)
	s3URL, _ := url.Parse(s3.URL)
	seed := make([]byte, 32)
	_, _ = rand.Read(seed)
	port := testkit.FreePort(t)
	dataDir := readOnlyDataDir(t)
	tmp := filepath.Join(t.TempDir(), "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	// The outside world of the test. Every name here must already be in the manifests: a variable
	// a driver needs and the manifests forget fails here, not in a pod.
	outside := map[string]string{
		"DATABASE_URL": dbURL, "S3_ENDPOINT": s3URL.Host, "S3_USE_SSL": "false",
		"SMTP_HOST": "127.0.0.1", "SMTP_PORT": strconv.Itoa(testkit.FreePort(t)),
		"PROOF_SIGNING_KEY": base64.StdEncoding.EncodeToString(seed),
		"PORT":              strconv.Itoa(port), "BASE_URL": "http://127.0.0.1:" + strconv.Itoa(port),
		"DATA_DIR": dataDir, "TMPDIR": tmp,
	}
	for name, env := range map[string]map[string]string{"Deployment": appEnv, "Job": jobEnv} {
		for k, v := range outside {
			if _, ok := env[k]; !ok {
				t.Errorf("the %s's container is not given %s", name, k)
			}
			env[k] = v
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	if appEnv["STORAGE_DRIVER"] != "s3" || appEnv["MAIL_DRIVER"] != "smtp" || appEnv["MIGRATE_ON_START"] != "false" {
		t.Fatalf("the Deployment must run on s3 and smtp and leave migrations to the Job: %v", appEnv)
	}

	run := func(env map[string]string, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...) // #nosec G204 -- the binary testkit built
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TZ=UTC"}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("marquee %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// A pod that starts before the Job has run is not ready: it would answer 500s.
	app := testkit.NewProc(t, "app", appEnv)
	app.Launch()
	var r struct {
		Failed []string          `json:"failed"`
		Checks map[string]string `json:"checks"`
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		res, err := http.Get(app.URL + "/readyz")
		if err == nil {
			raw, _ := io.ReadAll(res.Body)
			_ = res.Body.Close()
			if res.StatusCode != http.StatusServiceUnavailable || json.Unmarshal(raw, &r) != nil || !slices.Equal(r.Failed, []string{"migrations"}) {
				t.Fatalf("/readyz before the migrations: %d %s", res.StatusCode, raw)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not answer: %v\n%s", err, app.Log())
		}
	}

	// The Job: marquee migrate, once. Then the same pod is ready (migrated, database and bucket
	// answer).
	if out := run(jobEnv, "migrate"); !strings.Contains(out, "migrations are up to date") {
		t.Fatalf("marquee migrate said %q", out)
	}
	app.WaitReady(30 * time.Second)
	run(appEnv, "user", "create", "--email", "ops@deploy.test", "--password", "deploy-test-password-2026", "--role", "user", "--company", "Deploy Test")
	c := testkit.NewClient(t, app.URL)
	c.Header = map[string][]string{"Origin": {app.URL}}
	c.Post("/signin", map[string]string{"email": "ops@deploy.test", "password": "deploy-test-password-2026"}).Expect(t, 200)
	picture := pngOf(t, 1400, 400)
	var up struct{ Path string }
	c.Upload("/upload_creative_image", "file", testkit.File{Name: "ad.png", Body: picture}).Expect(t, 200).JSON(t, &up)
	if got := c.Get("/creative/image?image="+url.QueryEscape(up.Path)).Expect(t, 200).Body; !bytes.Equal(got, picture) {
		t.Fatalf("read back %d bytes, uploaded %d", len(got), len(picture))
	}
	if _, err := os.Stat(dataDir); err == nil {
		entries, _ := os.ReadDir(dataDir)
		if len(entries) > 0 {
			t.Errorf("marquee wrote under DATA_DIR: %v", entries)
		}
	}
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x += 7 {
		img.Set(x, x%h, color.RGBA{30, 90, 200, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
