package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"marquee/platform/db"
)

// server is one `marquee serve` process started by the load run, with its own DATA_DIR (and its
// own PostgreSQL database), so a run never sees another's data.
type server struct {
	binary string
	url    string
	env    []string
	dir    string
	logf   *os.File
	cmd    *exec.Cmd
	exited chan struct{}
	dropDB func()
}

// serverEnv is the environment of the server and of its CLI calls (seed, user create). The rate
// limits of sign-in, sign-up, reset and uploads count per client address: every request of the load
// comes from 127.0.0.1, so they are raised here; a real crowd comes from many addresses. Password
// hashing stays production argon2id.
func serverEnv(port int, dataDir, databaseURL string) []string {
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TZ=UTC",
		"PORT=" + strconv.Itoa(port), "BASE_URL=" + base, "DATA_DIR=" + dataDir,
		"LOG_FORMAT=text", "LOG_LEVEL=warn", "MAIL_DRIVER=file", "PAYMENT_GATEWAY=sandbox",
		"SIGNIN_RATE_LIMIT=1000000", "SIGNUP_RATE_LIMIT=1000000", "RESET_RATE_LIMIT=1000000",
		"UPLOAD_RATE_LIMIT=1000000", "SHUTDOWN_TIMEOUT=10s",
	}
	if databaseURL != "" {
		env = append(env, "DATABASE_URL="+databaseURL)
	}
	return env
}

// startServer makes a fresh database (a new PostgreSQL database when pgAdminURL is given, else
// SQLite in a new DATA_DIR), loads the demo data (markets, 3,250 faces, demo companies), creates
// the admins with the CLI, and starts `marquee serve`, returning once /readyz answers.
func startServer(ctx context.Context, cfg Config, admins []*account) (*server, error) {
	binary := cfg.Binary
	dir, err := os.MkdirTemp("", "marquee-load-")
	if err != nil {
		return nil, err
	}
	s := &server{binary: binary, dir: dir, dropDB: func() {}}
	databaseURL := cfg.DatabaseURL
	if cfg.Dialect == db.Postgres && databaseURL == "" {
		databaseURL, s.dropDB, err = createDatabase(cfg.PostgresAdminURL)
		if err != nil {
			s.close()
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		s.close()
		return nil, err
	}
	s.url = fmt.Sprintf("http://127.0.0.1:%d", port)
	s.env = serverEnv(port, filepath.Join(dir, "data"), databaseURL)
	if s.logf, err = os.Create(filepath.Join(dir, "server.log")); err != nil { // #nosec G304 -- the run's own temporary folder
		s.close()
		return nil, err
	}
	if err := s.cli(ctx, "seed", "--demo"); err != nil {
		s.close()
		return nil, err
	}
	for _, a := range admins {
		if err := s.cli(ctx, "user", "create", "--email", a.email, "--password", a.password, "--role", "admin", "--company", "Marquee"); err != nil {
			s.close()
			return nil, err
		}
	}
	s.cmd = exec.Command(binary, "serve") // #nosec G204 -- the marquee binary the operator named (make load builds it)
	s.cmd.Env = s.env
	s.cmd.Stdout, s.cmd.Stderr = s.logf, s.logf
	if err := s.cmd.Start(); err != nil {
		s.close()
		return nil, err
	}
	s.exited = make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	if err := s.waitReady(60 * time.Second); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// cli runs a marquee command on the server's data (before serve starts).
func (s *server) cli(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, s.binary, args...) // #nosec G204 -- the marquee binary the operator named, with our own arguments
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("marquee %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

func (s *server) waitReady(limit time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-s.exited:
			return fmt.Errorf("marquee serve exited before it was ready:\n%s", s.log())
		default:
		}
		if res, err := client.Get(s.url + "/readyz"); err == nil {
			_ = res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("marquee serve was not ready after %s:\n%s", limit, s.log())
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// running reports whether the server process is still up.
func (s *server) running() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// log returns the server's log (warnings and errors: LOG_LEVEL=warn).
func (s *server) log() string {
	b, err := os.ReadFile(filepath.Join(s.dir, "server.log"))
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// close stops the server gracefully (SIGTERM), drops its database and removes its files.
func (s *server) close() {
	if s.cmd != nil && s.cmd.Process != nil && s.exited != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM) // the graceful shutdown
		select {
		case <-s.exited:
		case <-time.After(20 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
	}
	if s.logf != nil {
		_ = s.logf.Close()
	}
	s.dropDB()
	_ = os.RemoveAll(s.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// createDatabase makes a fresh database on the PostgreSQL server of adminURL and returns its URL
// and the function that drops it.
func createDatabase(adminURL string) (string, func(), error) {
	name := fmt.Sprintf("marquee_load_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	admin, err := db.Open(db.Options{URL: adminURL, MaxOpenConns: 2})
	if err != nil {
		return "", nil, fmt.Errorf("open %s: %w", adminURL, err)
	}
	if err := admin.Exec("CREATE DATABASE " + name).Error; err != nil {
		_ = db.Close(admin)
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		_ = db.Close(admin)
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		admin.Exec(fmt.Sprintf("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '%s' AND pid <> pg_backend_pid()", name))
		if err := admin.Exec("DROP DATABASE IF EXISTS " + name).Error; err != nil {
			fmt.Fprintf(os.Stderr, "drop database %s: %v\n", name, err)
		}
		_ = db.Close(admin)
	}
	return u.String(), drop, nil
}

// rssSampler reads the server's resident set size (VmRSS of /proc/<pid>/status) every interval.
type rssSampler struct {
	mu      sync.Mutex
	samples []rssSample
	stop    chan struct{}
	done    chan struct{}
}

type rssSample struct {
	At  time.Duration
	KiB int64
}

func sampleRSS(pid int, every time.Duration) *rssSampler {
	r := &rssSampler{stop: make(chan struct{}), done: make(chan struct{})}
	start := time.Now()
	take := func() {
		if kib, err := readRSS(pid); err == nil {
			r.mu.Lock()
			r.samples = append(r.samples, rssSample{At: time.Since(start).Round(time.Second), KiB: kib})
			r.mu.Unlock()
		}
	}
	go func() {
		defer close(r.done)
		take()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-r.stop:
				take()
				return
			case <-t.C:
				take()
			}
		}
	}()
	return r
}

func (r *rssSampler) finish() []rssSample {
	close(r.stop)
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]rssSample(nil), r.samples...)
}

func readRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				return strconv.ParseInt(f[0], 10, 64)
			}
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
}
