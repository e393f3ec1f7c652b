package main

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"marquee/modules/webhooks"
)

// runDev runs a development helper: `marquee dev webhook-sink` is a local webhook receiver that
// verifies each delivery's signature and prints it (the demo's endpoint points at it).
func runDev(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 || args[0] != "webhook-sink" {
		return errors.New("usage: marquee dev webhook-sink [--addr 127.0.0.1:8090] [--secret whsec_...]")
	}
	fs := flag.NewFlagSet("webhook-sink", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8090", "where to listen")
	secret := fs.String("secret", webhooks.DemoSecret, "the endpoint's signing secret (Settings > API > Reveal secret)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	srv := &http.Server{Addr: *addr, Handler: sinkHandler(*secret, out, time.Now), ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(out, "webhook sink listening on http://%s/hooks (Ctrl-C to stop)\n", *addr)
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// sinkHandler answers 200 to a delivery whose Marquee-Signature verifies within 5 minutes, 400
// otherwise, and prints each one. It is the receiver docs/api.md describes, written out.
func sinkHandler(secret string, out io.Writer, now func() time.Time) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if err := verifySignature(r.Header.Get(webhooks.SignatureHeader), secret, body, now(), webhooks.SignatureTolerance); err != nil {
			fmt.Fprintf(out, "%s  REFUSED %s: %v\n", now().Format(time.TimeOnly), r.Header.Get("Marquee-Event-Type"), err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var p webhooks.Payload
		_ = json.Unmarshal(body, &p)
		fmt.Fprintf(out, "%s  %-20s %s  verified  %s\n", now().Format(time.TimeOnly), p.Type, p.ID, p.Data)
		_, _ = io.WriteString(w, `{"received":true}`)
	})
}

// verifySignature checks "t=<unix>,v1=<hex>" against HMAC-SHA256(secret, "<t>.<body>") and
// refuses a timestamp further than tolerance from now (a replay).
func verifySignature(header, secret string, body []byte, now time.Time, tolerance time.Duration) error {
	var ts string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || len(sigs) == 0 {
		return errors.New("no signature")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > tolerance || d < -tolerance {
		return errors.New("timestamp outside the tolerance")
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	want := hex.EncodeToString(mac.Sum(nil))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			return nil
		}
	}
	return errors.New("signature mismatch")
}
