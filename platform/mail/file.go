package mail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

type fileSender struct{ dir string }

// NewFileSender returns the default sender: it writes each message, as an RFC 5322 .eml file,
// to <dir>/<UTC timestamp>-<random>.eml, so development and end-to-end tests read mail without a
// mail server. The names sort by time.
func NewFileSender(dir string) Sender { return &fileSender{dir: dir} }

// Send implements Sender. The file appears whole or not at all (written, then renamed), so a
// test polling the directory never reads half a message.
func (s *fileSender) Send(ctx context.Context, from string, m Message) error {
	now := time.Now().UTC()
	raw, _, _, err := compose(from, m, now)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o750); err != nil {
		return fmt.Errorf("mail: file sender: %w", err)
	}
	suffix := make([]byte, 4)
	rand.Read(suffix)
	name := filepath.Join(s.dir, now.Format("20060102T150405.000000000Z")+"-"+hex.EncodeToString(suffix)+".eml")
	tmp, err := os.CreateTemp(s.dir, ".eml-*")
	if err != nil {
		return fmt.Errorf("mail: file sender: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(raw); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("mail: file sender: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("mail: file sender: %w", err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("mail: file sender: %w", err)
	}
	return nil
}
