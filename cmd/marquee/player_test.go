package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDevPlayerFlags: `marquee dev player` needs --server, and a fast clock needs an end (plays may
// not start in the future); both refusals come before any network call.
func TestDevPlayerFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dev", "player"}, "usage: marquee dev player"},
		{[]string{"dev", "player", "--server", "http://127.0.0.1:1", "--queue", t.TempDir(), "--speed", "60"}, "--duration is required"},
		{[]string{"dev", "player", "--server", "ftp://x", "--queue", t.TempDir()}, "is not an http(s) URL"},
		{[]string{"dev", "player", "--server", "http://127.0.0.1:1", "--queue", t.TempDir()}, "--pairing-code is required"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, func(string) string { return "" }, &out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}
