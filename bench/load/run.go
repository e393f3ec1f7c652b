package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"marquee/platform/db"
)

// Config is one load run.
type Config struct {
	Binary           string // the marquee binary
	Dialect          string // db.SQLite or db.Postgres
	PostgresAdminURL string // where the run's PostgreSQL database is made
	DatabaseURL      string // or an empty PostgreSQL database to use as is (the smoke test's)
	Duration         time.Duration
	Advertisers      int
	Admins           int
	Scale            float64   // multiplies every call's rate
	Progress         io.Writer // a line a minute while the mix runs; nil for none
}

// CallStats are the figures of one call of the mix.
type CallStats struct {
	Name          string
	Requests      uint64
	Rate          float64 // requests a second
	P50, P95, P99 time.Duration
	Max           time.Duration
	Errors        int
	Samples       []string // the first few errors: status, error and the start of the answer
}

// Report is a run's result.
type Report struct {
	Config       Config
	Started      time.Time
	Setup        time.Duration
	Machine      string
	LoadBefore   string
	LoadAfter    string
	Calls        []CallStats
	Total        CallStats
	RSS          []rssSample
	ServerErrors []string // lines the server logged at level ERROR
	ServerExited bool
}

// Errors counts the failed requests, plus one if the server died or logged an error.
func (r *Report) Errors() int {
	n := r.Total.Errors + len(r.ServerErrors)
	if r.ServerExited {
		n++
	}
	return n
}

// Run starts a server, sets the accounts up and runs the mix for cfg.Duration.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Scale <= 0 {
		cfg.Scale = 1
	}
	if cfg.Dialect != db.SQLite && cfg.Dialect != db.Postgres {
		return nil, fmt.Errorf("unknown database %q (sqlite or postgres)", cfg.Dialect)
	}
	if cfg.Advertisers < 1 || cfg.Admins < 1 {
		return nil, fmt.Errorf("need at least one advertiser and one admin")
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	rep := &Report{Config: cfg, Started: time.Now().UTC(), Machine: machine(), LoadBefore: loadAvg()}
	ads, admins := newAccounts(cfg.Advertisers, cfg.Admins)

	fmt.Fprintf(progress, "load: %s: seeding the demo data and starting marquee serve\n", cfg.Dialect)
	srv, err := startServer(ctx, cfg, admins)
	if err != nil {
		return nil, err
	}
	defer srv.close()
	fmt.Fprintf(progress, "load: signing up %d advertisers (card, creative, a first campaign each), signing in %d admins\n", len(ads), len(admins))
	w, err := setup(ctx, srv.url, ads, admins, 4)
	if err != nil {
		return nil, fmt.Errorf("setup: %w\nserver log:\n%s", err, srv.log())
	}
	rep.Setup = time.Since(rep.Started).Round(time.Second)
	fmt.Fprintf(progress, "load: set up in %s; running the mix for %s\n", rep.Setup, cfg.Duration)

	rss := sampleRSS(srv.pid(), 10*time.Second)
	calls := mix()
	stats := make([]CallStats, len(calls))
	all := &vegeta.Metrics{}
	var allMu sync.Mutex
	var wg sync.WaitGroup
	var attackers []*vegeta.Attacker
	for i, c := range calls {
		atk := vegeta.NewAttacker(vegeta.Timeout(30*time.Second), vegeta.Redirects(vegeta.NoFollow), vegeta.KeepAlive(true))
		attackers = append(attackers, atk)
		freq := int(float64(c.perMin)*cfg.Scale + 0.5)
		rate := vegeta.Rate{Freq: max(freq, 1), Per: time.Minute}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var m vegeta.Metrics
			st := CallStats{Name: c.name}
			targeter := func(t *vegeta.Target) error { return c.target(w, t) }
			for res := range atk.Attack(targeter, rate, cfg.Duration, c.name) {
				ok := res.Error == "" && int(res.Code) == c.want
				if !ok {
					st.Errors++
					if len(st.Samples) < 5 {
						st.Samples = append(st.Samples, fmt.Sprintf("%d %s %s: %.200s", res.Code, res.Method, res.URL, strings.TrimSpace(res.Error+" "+string(res.Body))))
					}
				} else if c.after != nil {
					c.after(w, res)
				}
				res.Body = nil
				m.Add(res)
				allMu.Lock()
				all.Add(res)
				allMu.Unlock()
			}
			m.Close()
			st.Requests = m.Requests
			st.Rate = float64(m.Requests) / cfg.Duration.Seconds()
			st.P50, st.P95, st.P99, st.Max = m.Latencies.P50, m.Latencies.P95, m.Latencies.P99, m.Latencies.Max
			stats[i] = st
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
wait:
	for {
		select {
		case <-done:
			break wait
		case <-ctx.Done():
			for _, a := range attackers {
				a.Stop()
			}
			<-done
			break wait
		case <-tick.C:
			allMu.Lock()
			n := all.Requests
			allMu.Unlock()
			last := rss.last()
			fmt.Fprintf(progress, "load: %s: %d requests so far, server RSS %.1f MiB\n", time.Since(rep.Started.Add(rep.Setup)).Round(time.Second), n, float64(last)/1024)
		}
	}
	rep.RSS = rss.finish()
	all.Close()
	rep.Calls = stats
	rep.Total = CallStats{Name: "all", Requests: all.Requests, Rate: float64(all.Requests) / cfg.Duration.Seconds(),
		P50: all.Latencies.P50, P95: all.Latencies.P95, P99: all.Latencies.P99, Max: all.Latencies.Max}
	for _, s := range stats {
		rep.Total.Errors += s.Errors
	}
	rep.ServerExited = !srv.running()
	for _, line := range strings.Split(srv.log(), "\n") {
		if strings.Contains(line, "level=ERROR") {
			rep.ServerErrors = append(rep.ServerErrors, line)
		}
	}
	rep.LoadAfter = loadAvg()
	return rep, ctx.Err()
}

func (r *rssSampler) last() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.samples) == 0 {
		return 0
	}
	return r.samples[len(r.samples)-1].KiB
}

// machine describes the host: CPUs, their model and the memory.
func machine() string {
	model := "unknown CPU"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
		_ = f.Close()
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				var kib int64
				_, _ = fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kib)
				mem = fmt.Sprintf(", %.1f GiB RAM", float64(kib)/1024/1024)
			}
		}
	}
	return fmt.Sprintf("%d CPUs (%s)%s, %s/%s", runtime.NumCPU(), model, mem, runtime.GOOS, runtime.GOARCH)
}

// loadAvg is the 1, 5 and 15 minute load averages (the machine is shared).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

// Markdown writes the report as docs/performance.md shows it.
func (r *Report) Markdown(out io.Writer) {
	name := map[string]string{db.SQLite: "SQLite", db.Postgres: "PostgreSQL"}[r.Config.Dialect]
	fmt.Fprintf(out, "### %s: %s of the mix, %d advertisers, %d admins\n\n", name, r.Config.Duration, r.Config.Advertisers, r.Config.Admins)
	fmt.Fprintf(out, "Started %s (setup %s: demo seed, sign-ups, cards, creatives, a first campaign each). %s.\n",
		r.Started.Format("2006-01-02 15:04 UTC"), r.Setup, r.Machine)
	fmt.Fprintf(out, "Load average (1, 5, 15 min) before %s, after %s.\n\n", r.LoadBefore, r.LoadAfter)
	fmt.Fprintln(out, "| call | requests | per second | p50 ms | p95 ms | p99 ms | max ms | errors |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, s := range append(append([]CallStats(nil), r.Calls...), r.Total) {
		label := s.Name
		if s.Name == "all" {
			label = "**all**"
		}
		fmt.Fprintf(out, "| %s | %d | %.2f | %s | %s | %s | %s | %d |\n", label, s.Requests, s.Rate, ms(s.P50), ms(s.P95), ms(s.P99), ms(s.Max), s.Errors)
	}
	fmt.Fprintln(out)
	if len(r.RSS) > 0 {
		var parts []string
		lo, hi := r.RSS[0].KiB, r.RSS[0].KiB
		for _, s := range r.RSS {
			parts = append(parts, fmt.Sprintf("%.0f", float64(s.KiB)/1024))
			lo, hi = min(lo, s.KiB), max(hi, s.KiB)
		}
		fmt.Fprintf(out, "Server RSS (MiB) every 10 s, %d samples: first %.1f, last %.1f, min %.1f, max %.1f.\n\n",
			len(r.RSS), float64(r.RSS[0].KiB)/1024, float64(r.RSS[len(r.RSS)-1].KiB)/1024, float64(lo)/1024, float64(hi)/1024)
		fmt.Fprintf(out, "```\n%s\n```\n\n", wrap(parts, 20))
		// The first sample is the server before the mix warmed it up; growth shows as a later
		// minute above the first one.
		if n := len(r.RSS); n >= 13 {
			fmt.Fprintf(out, "After the first sample: the first minute averages %.1f MiB, the last minute %.1f MiB.\n\n",
				meanMiB(r.RSS[1:7]), meanMiB(r.RSS[n-7:n-1]))
		}
	}
	if r.ServerExited {
		fmt.Fprintln(out, "**The server exited during the run.**")
	}
	for _, s := range r.Calls {
		for _, e := range s.Samples {
			fmt.Fprintf(out, "- error, %s: %s\n", s.Name, e)
		}
	}
	for i, l := range r.ServerErrors {
		if i == 10 {
			fmt.Fprintf(out, "- ... %d more server errors\n", len(r.ServerErrors)-10)
			break
		}
		fmt.Fprintf(out, "- server logged: %.300s\n", l)
	}
	fmt.Fprintf(out, "Errors: %d.\n\n", r.Errors())
}

func meanMiB(s []rssSample) float64 {
	var sum int64
	for _, x := range s {
		sum += x.KiB
	}
	return float64(sum) / float64(len(s)) / 1024
}

func wrap(parts []string, per int) string {
	var lines []string
	for i := 0; i < len(parts); i += per {
		lines = append(lines, strings.Join(parts[i:min(i+per, len(parts))], " "))
	}
	return strings.Join(lines, "\n")
}
