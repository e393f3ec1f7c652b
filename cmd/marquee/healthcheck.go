package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"
)

// healthcheck is `marquee healthcheck [--url URL] [--timeout 3s]`: it asks the local server's
// /readyz and exits 0 on 200, non-zero otherwise. The image is distroless (no shell, no curl), so
// the compose health check runs the binary itself (deploy/compose.yaml, docs/operations.md).
func healthcheck(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	port := getenv("PORT")
	if port == "" {
		port = "8080" // config's default; the check must not fail on another variable's bad value
	}
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(out)
	url := fs.String("url", "http://127.0.0.1:"+port+"/readyz", "the readiness URL to ask")
	timeout := fs.Duration("timeout", 3*time.Second, "how long the answer may take")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return err
	}
	// No proxy from the environment: the check asks this container's own server.
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s", *url, resp.Status)
	}
	fmt.Fprintln(out, "ready")
	return nil
}
