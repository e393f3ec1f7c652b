package mail_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jhillyerd/enmime/v2"
	smtpmock "github.com/mocktools/go-smtp-mock/v2"

	"marquee/platform/apperr"
	"marquee/platform/mail"
	"marquee/platform/testkit"
)

// picture is a small PNG with a gradient, so a decoded copy can be compared pixel by pixel.
func picture(t *testing.T, w, h int) (*image.NRGBA, []byte) {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 120, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return img, b.Bytes()
}

// An email with an inline picture goes through the outbox (stored in its row) and a real SMTP
// peer; enmime, an independent MIME parser, reads what the peer received: the text part is the
// one written, the HTML refers to a cid that resolves to an image/png part, and that part decodes
// to the picture's pixels.
func TestInlinePictures(t *testing.T) {
	t.Parallel()
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		_, o, clk := openOutbox(t, dialect)
		img, data := picture(t, 64, 40)
		text := "Hello Ana,\n\nYour ad on the face: open " + resetLink + "\n"
		html := mail.Letter{Title: "Your ad", Intro: []string{"Your ad on the face."},
			Picture: &mail.Picture{ContentID: "preview@marquee", Width: 64, Height: 40, Alt: "The ad on the face", Caption: "Main St, North face"},
			Button:  &mail.Link{Label: "Open", URL: resetLink}}.HTML()
		m := mail.Message{To: []string{"ana@example.com"}, Subject: "Your ad", Text: text, HTML: html,
			Inline: []mail.Inline{{ContentID: "preview@marquee", ContentType: "image/png", Data: data}}}
		if err := o.Enqueue(ctx, m); err != nil {
			t.Fatal(err)
		}
		if got := findMessages(t, o); len(got) != 1 || len(got[0].Inline) != 1 || !bytes.Equal(got[0].Inline[0].Data, data) {
			t.Fatalf("the outbox did not keep the picture: %+v", got)
		}
		srv, opts := mail.StartSMTP(t, smtpmock.ConfigurationAttr{})
		d := mail.NewDispatcher(o, mail.NewSMTPSender(opts), clk, mail.DispatchOptions{From: from})
		if n, err := d.DeliverPending(ctx); err != nil || n != 1 {
			t.Fatalf("delivered %d: %v", n, err)
		}
		msgs, err := srv.WaitForMessages(1, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		env, err := enmime.ReadEnvelope(strings.NewReader(msgs[0].MsgRequest()))
		if err != nil {
			t.Fatal(err)
		}
		if severe(env) {
			t.Fatalf("enmime: %v", env.Errors)
		}
		// The body ends with a line break, as every body does (encodeBody).
		if got := strings.ReplaceAll(env.Text, "\r\n", "\n"); got != text+"\n" {
			t.Fatalf("text part = %q, want %q", got, text)
		}
		if !strings.Contains(env.HTML, `src="cid:preview@marquee"`) || !strings.Contains(env.HTML, `alt="The ad on the face"`) {
			t.Fatalf("the HTML does not show the picture:\n%s", env.HTML)
		}
		if len(env.Inlines) != 1 || len(env.Attachments) != 0 {
			t.Fatalf("inlines %d, attachments %d", len(env.Inlines), len(env.Attachments))
		}
		p := env.Inlines[0]
		if p.ContentID != "preview@marquee" || p.ContentType != "image/png" || p.Parent == nil || p.Parent.ContentType != "multipart/related" {
			t.Fatalf("inline part: id %q type %q", p.ContentID, p.ContentType)
		}
		got, err := png.Decode(bytes.NewReader(p.Content))
		if err != nil {
			t.Fatal(err)
		}
		for y := range 40 {
			for x := range 64 {
				if color.NRGBAModel.Convert(got.At(x, y)) != img.NRGBAAt(x, y) {
					t.Fatalf("pixel %d,%d = %v, want %v", x, y, got.At(x, y), img.NRGBAAt(x, y))
				}
			}
		}
	})
}

// A message without Text but with pictures is multipart/related at the top.
func TestInlinePicturesHTMLOnly(t *testing.T) {
	t.Parallel()
	_, data := picture(t, 8, 8)
	dir := t.TempDir()
	err := mail.NewFileSender(dir).Send(context.Background(), from, mail.Message{To: []string{"ana@example.com"}, Subject: "Hi",
		HTML: `<p><img src="cid:a@b" alt="x"></p>`, Inline: []mail.Inline{{ContentID: "a@b", ContentType: "image/png", Data: data}}})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 1 {
		t.Fatalf("files = %v", files)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	env, err := enmime.ReadEnvelope(bytes.NewReader(raw))
	if err != nil || severe(env) {
		t.Fatalf("enmime: %v %v", err, env.Errors)
	}
	if env.Root.ContentType != "multipart/related" || len(env.Inlines) != 1 || env.Inlines[0].ContentID != "a@b" {
		t.Fatalf("root %s, inlines %d", env.Root.ContentType, len(env.Inlines))
	}
}

// severe tells whether enmime met a real fault (it also warns of a missing text part).
func severe(env *enmime.Envelope) bool {
	for _, e := range env.Errors {
		if e.Severe {
			return true
		}
	}
	return false
}

// Pictures are refused when they would make a message too large, lie about their type, carry a
// Content-ID that needs quoting, or have no HTML to show them.
func TestInlinePicturesAreChecked(t *testing.T) {
	t.Parallel()
	_, data := picture(t, 8, 8)
	ok := mail.Inline{ContentID: "preview@marquee", ContentType: "image/png", Data: data}
	base := mail.Message{To: []string{"ana@example.com"}, Subject: "Hi", Text: "Hi", HTML: "<p>Hi</p>"}
	big := make([]byte, mail.MaxInlineBytes+1)
	copy(big, data)
	for name, in := range map[string][]mail.Inline{
		"too large":    {{ContentID: "a@b", ContentType: "image/png", Data: big}},
		"not a png":    {{ContentID: "a@b", ContentType: "image/png", Data: []byte("<svg></svg>")}},
		"svg":          {{ContentID: "a@b", ContentType: "image/svg+xml", Data: []byte("<svg></svg>")}},
		"bad cid":      {{ContentID: "a b>\r\nBcc: x@y", ContentType: "image/png", Data: data}},
		"repeated cid": {ok, ok},
		"too many":     {ok, {ContentID: "b@m", ContentType: "image/png", Data: data}, {ContentID: "c@m", ContentType: "image/png", Data: data}, {ContentID: "d@m", ContentType: "image/png", Data: data}, {ContentID: "e@m", ContentType: "image/png", Data: data}},
	} {
		m := base
		m.Inline = in
		if err := mail.Validate(m); apperr.CodeOf(err) != apperr.EINVALID {
			t.Errorf("%s: %v", name, err)
		}
	}
	m := base
	m.HTML, m.Inline = "", []mail.Inline{ok}
	if err := mail.Validate(m); apperr.CodeOf(err) != apperr.EINVALID {
		t.Errorf("no HTML: %v", err)
	}
	m = base
	m.Inline = []mail.Inline{ok}
	if err := mail.Validate(m); err != nil {
		t.Errorf("a good picture: %v", err)
	}
}

// A picture whose Content-ID Validate would refuse gets no address in the HTML: the cid: URL is
// marked safe for html/template, so it is built only from a checked Content-ID.
func TestPictureCIDOnlyFromACheckedContentID(t *testing.T) {
	t.Parallel()
	if got := (mail.Picture{ContentID: "preview@marquee"}).CID(); got != "cid:preview@marquee" {
		t.Fatalf("CID = %q", got)
	}
	for _, bad := range []string{"", `x"onerror=alert(1)@a`, "javascript:alert(1)", "a b@c", "no-at-sign"} {
		if got := (mail.Picture{ContentID: bad}).CID(); got != "" {
			t.Errorf("CID of %q = %q, want none", bad, got)
		}
	}
}
