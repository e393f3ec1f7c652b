package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"marquee/cmd/marquee/internal/player"
)

const playerUsage = "usage: marquee dev player --server URL [--pairing-code CODE] [--speed N] [--duration D] [--queue DIR]"

// runPlayer is `marquee dev player`: the reference player of docs/screens.md against a running
// Marquee (issue 28, "A reference player"). It pairs on its first run; later runs on the same
// --queue folder keep the screen's key and post what an earlier run left queued.
func runPlayer(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("player", flag.ContinueOnError)
	fs.SetOutput(errOut)
	server := fs.String("server", "", "the Marquee base URL, e.g. http://127.0.0.1:8080")
	code := fs.String("pairing-code", "", "the face's pairing code (marquee screens pair --face ID); only for the first run")
	speed := fs.Float64("speed", 1, "play the loop at N times real time")
	duration := fs.Duration("duration", 0, "virtual time to play (e.g. 1h; at --speed 60 it takes a minute); 0 = until Ctrl-C, speed 1 only")
	queue := fs.String("queue", filepath.Join("var", "player"), "the player's folder: its key, pairing, sequence and queued plays")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *server == "" || fs.NArg() != 0 {
		return errors.New(playerUsage)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	fmt.Fprintf(out, "player: %s, speed %gx, queue %s (Ctrl-C stops; queued plays are posted by the next run)\n", *server, *speed, *queue)
	st, err := player.Run(ctx, player.Options{
		Server: *server, PairingCode: *code, QueueDir: *queue, Speed: *speed, Duration: *duration,
		Logger: slog.New(slog.NewTextHandler(errOut, &slog.HandlerOptions{Level: slog.LevelInfo})),
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "player: screen %s (face %s) played %d plays (seq %d..%d) in %s; posted %d (accepted %d, duplicates %d, flagged %d); %d still queued; %d heartbeats\n",
		st.ScreenID, st.FaceID, st.Played, st.FirstSeq, st.LastSeq, time.Since(start).Round(time.Millisecond),
		st.Posted, st.Accepted, st.Duplicates, st.Flagged, st.Queued, st.Heartbeats)
	if st.CreativesRefused > 0 {
		fmt.Fprintf(out, "player: %d creatives refused: their bytes do not match the schedule's SHA-256\n", st.CreativesRefused)
	}
	return nil
}
