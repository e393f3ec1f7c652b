package main

import (
	"strings"
	"testing"

	"marquee/platform/config"
	"marquee/platform/httpx"
)

// The server's logger puts the request id on every record logged with a request's
// context, in both log formats (the mechanism is tested in platform/httpx).
func TestServerLoggerCarriesTheRequestID(t *testing.T) {
	for _, format := range []string{"json", "text"} {
		var out strings.Builder
		log := newLogger(config.Config{LogLevel: "info", LogFormat: format}, &out)
		log.ErrorContext(httpx.WithRequestID(t.Context(), "req-42"), "charge failed")
		if !strings.Contains(out.String(), "request_id") || !strings.Contains(out.String(), "req-42") {
			t.Errorf("%s: %q has no request id", format, out.String())
		}
	}
}
