package locations_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"marquee/modules/locations"
	"marquee/platform/server"
	"marquee/platform/testkit"
)

// GET /api/map/config says when the tile server cannot be reached, so the web app draws
// its offline basemap without one failed request per tile. The check is made once, kept for five
// minutes, then made again.
func TestMapConfigSaysWhetherTilesCanBeReached(t *testing.T) {
	var asked atomic.Int32
	var down atomic.Bool
	tiles := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		if down.Load() || r.URL.Path != "/0/0/0.png" {
			http.Error(w, "no", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write([]byte("png"))
	}))
	defer tiles.Close()

	s := testkit.Start(t, testkit.Dialects()[0], server.Compose(locations.Component), testkit.WithEnv("TILE_URL", tiles.URL+"/{z}/{x}/{y}.png"))
	c := s.Client(t)
	config := func() locations.MapConfig {
		var cfg locations.MapConfig
		c.Get("/api/map/config").Expect(t, 200).JSON(t, &cfg)
		return cfg
	}
	if cfg := config(); cfg.Offline || cfg.TileURL != tiles.URL+"/{z}/{x}/{y}.png" {
		t.Fatalf("tiles up: %+v", cfg)
	}
	if config().Offline || asked.Load() != 1 {
		t.Fatalf("asked the tile server %d times, want once", asked.Load())
	}

	// The tile server goes down: the answer is kept for five minutes, then checked again.
	down.Store(true)
	if config().Offline || asked.Load() != 1 {
		t.Fatalf("checked again within five minutes (%d)", asked.Load())
	}
	s.Clock.Advance(6 * time.Minute)
	deadline := time.Now().Add(5 * time.Second)
	for !config().Offline {
		if time.Now().After(deadline) {
			t.Fatalf("still online after the tile server went down (%d checks)", asked.Load())
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A tile host that does not resolve is offline from the first answer.
	s2 := testkit.Start(t, testkit.Dialects()[0], server.Compose(locations.Component), testkit.WithEnv("TILE_URL", "https://{s}.tiles.invalid/{z}/{x}/{y}.png"))
	var cfg locations.MapConfig
	s2.Client(t).Get("/api/map/config").Expect(t, 200).JSON(t, &cfg)
	if !cfg.Offline {
		t.Fatalf("unresolvable tile host: %+v", cfg)
	}
}
