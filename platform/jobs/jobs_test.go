package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"marquee/platform/apperr"
	"marquee/platform/jobs"
)

// logBuffer collects a scheduler's log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newScheduler(t *testing.T, leader jobs.Leader) (*jobs.Scheduler, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	s := jobs.NewScheduler(leader, slog.New(slog.NewTextHandler(logs, nil)))
	t.Cleanup(func() { s.Stop(context.Background()) })
	return s, logs
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestSchedulerRunsJobsRepeatedlyWithoutOverlap(t *testing.T) {
	t.Parallel()
	s, _ := newScheduler(t, jobs.NewLocalLeader())
	var runs, running, overlaps atomic.Int32
	s.Add(jobs.Job{Name: "slow", Every: 2 * time.Millisecond, Run: func(ctx context.Context) error {
		if running.Add(1) > 1 {
			overlaps.Add(1)
		}
		defer running.Add(-1)
		time.Sleep(5 * time.Millisecond) // longer than Every: ticks come while it runs
		runs.Add(1)
		return nil
	}})
	var fastRuns atomic.Int32
	s.Add(jobs.Job{Name: "fast", Every: time.Millisecond, Run: func(ctx context.Context) error {
		fastRuns.Add(1)
		return nil
	}})
	s.Start(context.Background())
	// RunNow while the ticker runs the same job: still never two at once.
	for range 3 {
		if err := s.RunNow(context.Background(), "slow"); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "several runs of each job", func() bool { return runs.Load() >= 5 && fastRuns.Load() >= 5 })
	if err := s.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := overlaps.Load(); n > 0 {
		t.Fatalf("%d runs overlapped another run of the same job", n)
	}
	after := runs.Load()
	time.Sleep(20 * time.Millisecond)
	if runs.Load() != after {
		t.Fatal("the job ran after Stop returned")
	}
}

func TestSchedulerRecoversPanicsAndLogsErrors(t *testing.T) {
	t.Parallel()
	s, logs := newScheduler(t, jobs.NewLocalLeader())
	var calls atomic.Int32
	s.Add(jobs.Job{Name: "flaky", Every: time.Millisecond, Run: func(ctx context.Context) error {
		switch calls.Add(1) {
		case 1:
			panic("boom")
		case 2:
			return errors.New("charge failed")
		}
		return nil
	}})
	s.Start(context.Background())
	waitFor(t, "runs after the panic", func() bool { return calls.Load() >= 3 })
	if err := s.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	for _, want := range []string{"job panicked", "job=flaky", "panic=boom", "job failed", "charge failed"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

func TestRunNow(t *testing.T) {
	t.Parallel()
	s, _ := newScheduler(t, jobs.NewLocalLeader())
	var ran bool
	s.Add(jobs.Job{Name: "once", Every: time.Hour, Run: func(ctx context.Context) error { ran = true; return nil }})
	s.Add(jobs.Job{Name: "fails", Every: time.Hour, Run: func(ctx context.Context) error { return apperr.Field("x", "bad") }})
	s.Add(jobs.Job{Name: "panics", Every: time.Hour, Run: func(ctx context.Context) error { panic("oops") }})
	ctx := context.Background()

	// Without Start: RunNow serves the CLI, which never starts the scheduler.
	if err := s.RunNow(ctx, "once"); err != nil || !ran {
		t.Fatalf("RunNow = %v, ran = %v", err, ran)
	}
	if err := s.RunNow(ctx, "fails"); apperr.CodeOf(err) != apperr.EINVALID {
		t.Fatalf("RunNow(fails) = %v, want the job's own error", err)
	}
	if err := s.RunNow(ctx, "panics"); apperr.CodeOf(err) != apperr.EINTERNAL || !strings.Contains(err.Error(), "oops") {
		t.Fatalf("RunNow(panics) = %v, want an internal error", err)
	}
	if err := s.RunNow(ctx, "nope"); apperr.CodeOf(err) != apperr.ENOTFOUND {
		t.Fatalf("RunNow(nope) = %v, want ENOTFOUND", err)
	}
	if got := strings.Join(s.Jobs(), ","); got != "once,fails,panics" {
		t.Fatalf("Jobs = %s", got)
	}
}

func TestStopWaitsForRunningJobs(t *testing.T) {
	t.Parallel()
	s, _ := newScheduler(t, jobs.NewLocalLeader())
	started, release := make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	var once sync.Once
	s.Add(jobs.Job{Name: "long", Every: time.Millisecond, Run: func(ctx context.Context) error {
		once.Do(func() { close(started) })
		<-release
		finished.Store(true)
		return nil
	}})
	s.Start(context.Background())
	<-started
	stopped := make(chan error)
	go func() { stopped <- s.Stop(context.Background()) }()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) while the job was running", err)
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if !finished.Load() {
		t.Fatal("Stop returned before the job finished")
	}
}

func TestStopGivesUpWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	s, _ := newScheduler(t, jobs.NewLocalLeader())
	started := make(chan struct{})
	var once sync.Once
	cancelled := make(chan struct{})
	s.Add(jobs.Job{Name: "stuck", Every: time.Millisecond, Run: func(ctx context.Context) error {
		once.Do(func() { close(started) })
		<-ctx.Done() // only ends when told
		close(cancelled)
		return ctx.Err()
	}})
	// Ending Start's context stops ticking but does not cut the running job.
	startCtx, cancelStart := context.WithCancel(context.Background())
	s.Start(startCtx)
	<-started
	cancelStart()
	select {
	case <-cancelled:
		t.Fatal("ending Start's context cancelled a running job")
	case <-time.After(10 * time.Millisecond):
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := s.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Stop = %v, want DeadlineExceeded", err)
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the job's context was not cancelled when Stop gave up")
	}
}

func TestAddRefusesProgrammingErrors(t *testing.T) {
	t.Parallel()
	run := func(context.Context) error { return nil }
	cases := map[string]func(s *jobs.Scheduler){
		"duplicate name": func(s *jobs.Scheduler) {
			s.Add(jobs.Job{Name: "a", Every: time.Second, Run: run})
			s.Add(jobs.Job{Name: "a", Every: time.Minute, Run: run})
		},
		"zero interval":     func(s *jobs.Scheduler) { s.Add(jobs.Job{Name: "a", Run: run}) },
		"negative interval": func(s *jobs.Scheduler) { s.Add(jobs.Job{Name: "a", Every: -time.Second, Run: run}) },
		"no name":           func(s *jobs.Scheduler) { s.Add(jobs.Job{Every: time.Second, Run: run}) },
		"no run":            func(s *jobs.Scheduler) { s.Add(jobs.Job{Name: "a", Every: time.Second}) },
		"after start": func(s *jobs.Scheduler) {
			s.Start(context.Background())
			s.Add(jobs.Job{Name: "a", Every: time.Second, Run: run})
		},
	}
	for name, add := range cases {
		t.Run(name, func(t *testing.T) {
			s, _ := newScheduler(t, jobs.NewLocalLeader())
			defer func() {
				if recover() == nil {
					t.Fatal("Add did not panic")
				}
			}()
			add(s)
		})
	}
}

// Two replicas on one PostgreSQL: only the leader's scheduler runs jobs; when it stops, the
// other takes over.
func TestOnlyTheLeaderRunsJobs(t *testing.T) {
	t.Parallel()
	gdbA, gdbB := openTwice(t)
	var runsA, runsB atomic.Int32
	a, logsA := newScheduler(t, jobs.NewPostgresLeader(gdbA, lockKey))
	b, logsB := newScheduler(t, jobs.NewPostgresLeader(gdbB, lockKey))
	a.Add(jobs.Job{Name: "tick", Every: 5 * time.Millisecond, Run: func(context.Context) error { runsA.Add(1); return nil }})
	b.Add(jobs.Job{Name: "tick", Every: 5 * time.Millisecond, Run: func(context.Context) error { runsB.Add(1); return nil }})

	a.Start(context.Background())
	waitFor(t, "a to run", func() bool { return runsA.Load() >= 3 })
	b.Start(context.Background())
	time.Sleep(50 * time.Millisecond)
	if n := runsB.Load(); n != 0 {
		t.Fatalf("b ran %d times while a led", n)
	}
	if err := a.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b to take over", func() bool { return runsB.Load() >= 3 })
	if err := b.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logsA.String(), "this process leads") || !strings.Contains(logsB.String(), "this process leads") {
		t.Fatalf("leadership changes not logged:\na: %s\nb: %s", logsA, logsB)
	}
}
