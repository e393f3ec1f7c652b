package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"marquee/modules/screens"
	"marquee/platform/config"
	"marquee/platform/db"
	"marquee/platform/testkit"
)

// The demo face pairs with the seed's code; a batch of plays posted by the player enters the
// campaign's chain, and marquee verify checks the screen's signature with Marquee's. marquee
// screens pair makes codes.
func TestVerifyCommandChecksTheScreensSignature(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		dir := t.TempDir()
		env := map[string]string{"DATA_DIR": dir, "LOG_LEVEL": "error"}
		if dialect == db.Postgres {
			env["DATABASE_URL"] = testkit.PostgresURL(t)
		}
		getenv := func(k string) string { return env[k] }
		var out bytes.Buffer
		if err := run(t.Context(), []string{"seed", "--demo"}, getenv, &out); err != nil {
			t.Fatalf("seed: %v\n%s", err, out.String())
		}
		if !strings.Contains(out.String(), "pairing code "+screens.DemoPairingCode) {
			t.Fatalf("the seed did not print the pairing code:\n%s", out.String())
		}
		cfg, err := config.Load(getenv)
		if err != nil {
			t.Fatal(err)
		}
		app, err := open(t.Context(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(app.handler)
		defer srv.Close()
		defer app.kernel.Close()

		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		pb, _ := json.Marshal(screens.PairRequest{Code: screens.DemoPairingCode, PublicKey: base64.StdEncoding.EncodeToString(pub)})
		res, err := http.Post(srv.URL+"/api/device/pair", "application/json", bytes.NewReader(pb))
		if err != nil || res.StatusCode != 201 {
			t.Fatalf("pair: %v %v", res, err)
		}
		var paired screens.PairResult
		_ = json.NewDecoder(res.Body).Decode(&paired)
		res.Body.Close()
		signed := func(method, path string, body []byte) *http.Response {
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			msg := screens.SignedMessage(method, path, ts, screens.BodyHash(body))
			req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(screens.HeaderScreenID, paired.ScreenID)
			req.Header.Set(screens.HeaderTimestamp, ts)
			req.Header.Set(screens.HeaderSignature, base64.StdEncoding.EncodeToString(ed25519.Sign(priv, []byte(msg))))
			r, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		var sch screens.Schedule
		r := signed("GET", "/api/device/schedule?weeks=1", nil)
		_ = json.NewDecoder(r.Body).Decode(&sch)
		r.Body.Close()
		if len(sch.Weeks) != 1 || len(sch.Weeks[0].Items) == 0 {
			t.Fatalf("the demo face has nothing to play: %+v", sch)
		}
		it := sch.Weeks[0].Items[0]
		body, _ := json.Marshal(screens.PlaysBatch{Plays: []screens.PlayIn{{Seq: 1, CampaignID: it.CampaignID, CreativeID: it.CreativeID,
			StartedAt: time.Now().UTC().Add(-time.Minute), DurationMs: 8000}}})
		var pr screens.PlaysResult
		r = signed("POST", "/api/device/plays", body)
		_ = json.NewDecoder(r.Body).Decode(&pr)
		r.Body.Close()
		if pr.Accepted != 1 {
			t.Fatalf("plays = %+v", pr)
		}

		// marquee screens pair prints a new code for the face; an unknown face is refused.
		out.Reset()
		if err := run(t.Context(), []string{"screens", "pair", "--face", paired.FaceID}, getenv, &out); err != nil ||
			!strings.Contains(out.String(), "pairing code for face "+paired.FaceID+": ") {
			t.Fatalf("screens pair: %v\n%s", err, out.String())
		}
		if err := run(t.Context(), []string{"screens", "pair", "--face", "0190a000-0000-7000-8000-000000000000"}, getenv, io.Discard); err == nil {
			t.Fatal("a code for an unknown face")
		}
		if err := run(t.Context(), []string{"screens", "pair"}, getenv, io.Discard); err == nil {
			t.Fatal("screens pair without --face")
		}

		out.Reset()
		if err := run(t.Context(), []string{"verify", "--campaign", it.CampaignID}, getenv, &out); err != nil {
			t.Fatalf("verify: %v\n%s", err, out.String())
		}
		if !strings.Contains(out.String(), "device_batch") || !strings.Contains(out.String(), "signed by screen "+paired.ScreenID) {
			t.Fatalf("verify said:\n%s", out.String())
		}
	})
}
