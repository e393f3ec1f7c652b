package locations

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"marquee/platform/auth"
	"marquee/platform/clock"
)

// mapConfig is the map's tile server, and whether it answers (tileProbe).
func (s *service) mapConfig(ctx context.Context, _ *auth.Principal) (MapConfig, error) {
	return MapConfig{TileURL: s.deps.TileURL, Attribution: s.deps.TileAttribution, Offline: !s.tiles.reachable(ctx)}, nil
}

// tileProbe tells whether the map's tile server answers: when it does not (no internet,
// a blocked host), GET /api/map/config says so and the web app draws its offline basemap without
// asking for a single tile, instead of one failed request, and one console error, per tile.
//
// The probe asks for the world tile (zoom 0) once, and again when its answer is older than
// tileProbeEvery; a stale answer is given while the new one is made, so only the first call waits.
// It is what the server sees: a browser that cannot reach a tile the server can still falls back,
// on its first failed tile (platform/map/Map.tsx).
type tileProbe struct {
	url    string
	clock  clock.Clock
	client *http.Client

	mu       sync.Mutex
	checked  time.Time // zero until the first answer
	online   bool
	checking bool
	done     chan struct{} // closed when the running check ends
}

const (
	tileProbeEvery   = 5 * time.Minute
	tileProbeTimeout = 3 * time.Second
)

func newTileProbe(template string, c clock.Clock) *tileProbe {
	r := strings.NewReplacer("{z}", "0", "{x}", "0", "{y}", "0", "{s}", "a", "{r}", "")
	return &tileProbe{url: r.Replace(template), clock: c, client: &http.Client{Timeout: tileProbeTimeout}}
}

// reachable answers whether the tile server answered its last probe, probing first when it never
// has (waiting at most until ctx ends: then the tiles are taken as reachable, the former behaviour).
func (p *tileProbe) reachable(ctx context.Context) bool {
	p.mu.Lock()
	if !p.checked.IsZero() && p.clock.Now().Sub(p.checked) < tileProbeEvery {
		online := p.online
		p.mu.Unlock()
		return online
	}
	if !p.checking {
		p.checking, p.done = true, make(chan struct{})
		// #nosec G118 -- the check outlives the request that started it: its answer serves the
		// requests of the next five minutes (it has its own timeout, tileProbeTimeout).
		go p.check()
	}
	first, done, online := p.checked.IsZero(), p.done, p.online
	p.mu.Unlock()
	if !first {
		return online // the last answer while the new one is made
	}
	select {
	case <-done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.online
	case <-ctx.Done():
		return true
	}
}

func (p *tileProbe) check() {
	online := false
	ctx, cancel := context.WithTimeout(context.Background(), tileProbeTimeout)
	defer cancel()
	if req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url, nil); err == nil {
		req.Header.Set("User-Agent", "Marquee (map tile check)")
		if res, err := p.client.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
			_ = res.Body.Close()
			online = res.StatusCode >= 200 && res.StatusCode < 300
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.online, p.checked, p.checking = online, p.clock.Now(), false
	close(p.done)
}
