package testkit

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The process harness runs the real `marquee serve` binary, for the tests that are about
// processes: several replicas on one database (TestScaleOut), a SIGKILL in the middle
// of a write, a database or a store that goes away under a running server. Everything else runs
// the server in the test's own process (Start), which is faster and sees the kernel.

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// Binary builds cmd/marquee once per test binary and returns its path. The build runs from the
// module, so the test may live in any package; the Go build cache makes later builds quick.
func Binary(tb testing.TB) string {
	tb.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "marquee-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "marquee")
		cmd := exec.Command("go", "build", "-o", binaryPath, "marquee/cmd/marquee") // #nosec G204 -- test support: builds this module's own command
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			binaryErr = fmt.Errorf("go build marquee: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		tb.Fatal(binaryErr)
	}
	return binaryPath
}

// Proc is one `marquee serve` process. Its log goes to a file in the test's temporary folder and
// is printed when the test fails.
type Proc struct {
	Name string
	URL  string
	Port int
	Env  map[string]string

	tb      testing.TB
	logPath string
	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{}
}

// FreePort returns a TCP port that was free a moment ago on 127.0.0.1.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Serve starts `marquee serve` with env over these defaults: a free port, a fresh DATA_DIR, file
// mail, text logs at info. Pass DATABASE_URL for PostgreSQL (PostgresURL); without it the process
// runs on SQLite in its DATA_DIR. Serve returns once /readyz answers 200, and stops the process
// when the test ends.
func Serve(tb testing.TB, name string, env map[string]string) *Proc {
	tb.Helper()
	p := NewProc(tb, name, env)
	p.Start()
	return p
}

// NewProc prepares the process Serve would run, without starting it: Launch then WaitReady start
// several at the same moment (two replicas migrating one database at once, TestScaleOut). It is
// stopped when the test ends.
func NewProc(tb testing.TB, name string, env map[string]string) *Proc {
	tb.Helper()
	port := FreePort(tb)
	dir := tb.TempDir()
	full := map[string]string{
		"PORT": strconv.Itoa(port), "BASE_URL": fmt.Sprintf("http://127.0.0.1:%d", port),
		"DATA_DIR": filepath.Join(dir, "data"), "LOG_FORMAT": "text", "LOG_LEVEL": "info",
		"MAIL_DRIVER": "file", "SHUTDOWN_TIMEOUT": "5s",
	}
	for k, v := range env {
		full[k] = v
	}
	if p, ok := env["PORT"]; ok {
		port, _ = strconv.Atoi(p)
	}
	p := &Proc{Name: name, Port: port, URL: fmt.Sprintf("http://127.0.0.1:%d", port), Env: full, tb: tb,
		logPath: filepath.Join(dir, name+".log")}
	tb.Cleanup(func() {
		p.Stop()
		if tb.Failed() {
			tb.Logf("--- log of %s ---\n%s", p.Name, p.Log())
		}
	})
	return p
}

// Start starts the process (again, after Kill or Stop, on the same port, data and database) and
// waits until it is ready.
func (p *Proc) Start() {
	p.tb.Helper()
	p.Launch()
	p.WaitReady(60 * time.Second)
}

// Launch starts the process and returns at once; WaitReady waits for it.
func (p *Proc) Launch() {
	p.tb.Helper()
	p.mu.Lock()
	if p.cmd != nil {
		p.mu.Unlock()
		p.tb.Fatalf("%s is already running", p.Name)
	}
	logFile, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		p.mu.Unlock()
		p.tb.Fatal(err)
	}
	cmd := exec.Command(Binary(p.tb), "serve") // #nosec G204 -- test support: runs the binary Binary built
	keys := make([]string, 0, len(p.Env))
	for k := range p.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TZ=UTC"}
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+p.Env[k])
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		p.mu.Unlock()
		p.tb.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); _ = logFile.Close(); close(exited) }()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
}

// WaitReady waits until /readyz answers 200, failing the test when the process exits or the
// time runs out.
func (p *Proc) WaitReady(limit time.Duration) {
	p.tb.Helper()
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		exited := p.exited
		p.mu.Unlock()
		select {
		case <-exited:
			p.tb.Fatalf("%s exited before it was ready:\n%s", p.Name, p.Log())
		default:
		}
		if res, err := client.Get(p.URL + "/readyz"); err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.tb.Fatalf("%s was not ready after %s:\n%s", p.Name, limit, p.Log())
}

// Running reports whether the process is running.
func (p *Proc) Running() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return false
	}
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// Kill ends the process with SIGKILL: no shutdown, no deferred work, as a crash or the OOM killer.
func (p *Proc) Kill() { p.signal(syscall.SIGKILL) }

// Stop ends the process with SIGTERM (the graceful shutdown) and waits for it.
func (p *Proc) Stop() { p.signal(syscall.SIGTERM) }

func (p *Proc) signal(sig syscall.Signal) {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.cmd = nil
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(sig)
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
	}
}

// Log returns what the process has written so far (every run of it).
func (p *Proc) Log() string {
	b, err := os.ReadFile(p.logPath)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
