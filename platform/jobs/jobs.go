// Package jobs runs the application's periodic jobs (DESIGN.md §5): every job runs every Every,
// only in the process that leads (one leader across replicas, by a PostgreSQL advisory lock), one
// run of a job at a time. Jobs are idempotent, so a run repeated after a change of leader is
// harmless.
package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"marquee/platform/apperr"
)

// Job is a periodic task.
type Job struct {
	Name  string
	Every time.Duration
	// Run does one pass of the job. Its context ends when the scheduler is stopped and its grace
	// period is over.
	Run func(ctx context.Context) error
}

// Scheduler runs jobs while its leader leads.
type Scheduler struct {
	leader Leader
	log    *slog.Logger
	// Observe, when set before Start, hears every run: the job, how long it took and its error
	// (the metrics of docs/operations.md).
	Observe func(job string, took time.Duration, err error)

	mu      sync.Mutex
	jobs    []*entry
	byName  map[string]*entry
	started bool

	stopTicking context.CancelFunc // ends the tick loops
	cancelRuns  context.CancelFunc // ends the context of running jobs
	loops       sync.WaitGroup
	leading     atomic.Bool
}

type entry struct {
	job Job
	// sem holds one token: whoever holds it runs the job, so runs never overlap, whether they come
	// from the ticker or from RunNow.
	sem chan struct{}
}

// NewScheduler returns a scheduler that runs jobs while leader leads. A nil log is slog.Default().
func NewScheduler(leader Leader, log *slog.Logger) *Scheduler {
	if leader == nil {
		panic("jobs: NewScheduler needs a leader")
	}
	if log == nil {
		log = slog.Default()
	}
	return &Scheduler{leader: leader, log: log, byName: map[string]*entry{}}
}

// Add registers j. It panics on a programming error: a duplicate or empty name, Every <= 0, no
// Run, or a call after Start.
func (s *Scheduler) Add(j Job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.started:
		panic(fmt.Sprintf("jobs: Add(%q) after Start", j.Name))
	case j.Name == "":
		panic("jobs: a job needs a name")
	case s.byName[j.Name] != nil:
		panic(fmt.Sprintf("jobs: duplicate job %q", j.Name))
	case j.Every <= 0:
		panic(fmt.Sprintf("jobs: job %q: Every must be positive, not %v", j.Name, j.Every))
	case j.Run == nil:
		panic(fmt.Sprintf("jobs: job %q has no Run", j.Name))
	}
	e := &entry{job: j, sem: make(chan struct{}, 1)}
	s.jobs = append(s.jobs, e)
	s.byName[j.Name] = e
}

// Jobs returns the names of the jobs, in the order they were added.
func (s *Scheduler) Jobs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, len(s.jobs))
	for i, e := range s.jobs {
		names[i] = e.job.Name
	}
	return names
}

// Start runs each job every Every, from now on, while this process leads; the lead is checked
// on each tick. Ticks that come while a job still runs are skipped. When ctx ends, ticking stops,
// but running jobs go on until Stop lets them. Start panics if called twice.
func (s *Scheduler) Start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		panic("jobs: Start called twice")
	}
	s.started = true
	tickCtx, stopTicking := context.WithCancel(ctx)
	// Runs outlive ctx so that a shutdown signal does not cut a job in half; Stop decides.
	runCtx, cancelRuns := context.WithCancel(context.WithoutCancel(ctx))
	s.stopTicking, s.cancelRuns = stopTicking, cancelRuns
	for _, e := range s.jobs {
		s.loops.Add(1)
		go s.loop(tickCtx, runCtx, e)
	}
}

func (s *Scheduler) loop(tickCtx, runCtx context.Context, e *entry) {
	defer s.loops.Done()
	t := time.NewTicker(e.job.Every)
	defer t.Stop()
	for {
		select {
		case <-tickCtx.Done():
			return
		case <-t.C:
		}
		if !s.lead(tickCtx) {
			continue
		}
		select {
		case e.sem <- struct{}{}:
		default:
			continue // RunNow holds the job
		}
		_ = s.run(runCtx, e) // run logs and counts the failure; the next tick tries again
		<-e.sem
	}
}

// lead asks the leader and logs changes of leadership.
func (s *Scheduler) lead(ctx context.Context) bool {
	leading, err := s.leader.TryLead(ctx)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("jobs: cannot check leadership", "err", err)
		}
		leading = false
	}
	if was := s.leading.Swap(leading); was != leading {
		if leading {
			s.log.Info("jobs: this process leads; running jobs")
		} else {
			s.log.Info("jobs: this process no longer leads")
		}
	}
	return leading
}

// run runs a job once, turning a panic into an error, and logs a failure with the job's name.
func (s *Scheduler) run(ctx context.Context, e *entry) (err error) {
	start := time.Now()
	defer func() {
		p := recover()
		if p != nil {
			err = apperr.Internal(fmt.Errorf("job %s panicked: %v", e.job.Name, p))
			s.log.Error("jobs: job panicked", "job", e.job.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		if s.Observe != nil {
			s.Observe(e.job.Name, time.Since(start), err)
		}
		if err != nil && p == nil {
			s.log.Error("jobs: job failed", "job", e.job.Name, "err", err, "duration", time.Since(start))
		}
	}()
	return e.job.Run(ctx)
}

// Stop stops ticking, gives up the lead and waits for running jobs to end. If ctx ends first,
// the running jobs' context is cancelled and Stop returns ctx's error without waiting further.
func (s *Scheduler) Stop(ctx context.Context) error {
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if !started {
		return nil
	}
	s.stopTicking()
	done := make(chan struct{})
	go func() {
		s.loops.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		s.cancelRuns()
		err = ctx.Err()
	}
	s.cancelRuns()
	// Released even when ctx has ended: another replica should not wait for a dead session.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if rerr := s.leader.Release(rctx); rerr != nil && err == nil {
		err = rerr
	}
	s.leading.Store(false)
	return err
}

// RunNow runs the named job once and returns its error, whether or not this process leads (tests,
// the CLI). It waits for a run of the same job in progress, so runs never overlap. Returns
// ENOTFOUND for an unknown name.
func (s *Scheduler) RunNow(ctx context.Context, name string) error {
	s.mu.Lock()
	e := s.byName[name]
	s.mu.Unlock()
	if e == nil {
		return apperr.NotFound(fmt.Sprintf("No job named %q.", name))
	}
	select {
	case e.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-e.sem }()
	return s.run(ctx, e)
}
