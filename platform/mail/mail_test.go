package mail

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
	"testing"
	"time"

	"marquee/platform/apperr"
)

// resetLink is the kind of link end-to-end tests grep for in .eml files.
const resetLink = "http://127.0.0.1:18181/reset-password?token=abc_-XYZ"

var composedAt = time.Date(2025, 3, 5, 14, 30, 0, 0, time.UTC)

func TestComposeTextOnly(t *testing.T) {
	t.Parallel()
	raw, envFrom, rcpts, err := compose("Marquee <no-reply@marquee.example.com>", Message{
		To:      []string{"ann@example.com", "Bob Smith <bob@example.com>"},
		Subject: "Reset your password",
		Text:    "Hello,\nopen " + resetLink + " to reset it.\n",
		ReplyTo: "support@example.com",
	}, composedAt)
	if err != nil {
		t.Fatal(err)
	}
	if envFrom != "no-reply@marquee.example.com" || strings.Join(rcpts, ",") != "ann@example.com,bob@example.com" {
		t.Fatalf("envelope %q -> %q", envFrom, rcpts)
	}
	if !bytes.Contains(raw, []byte(resetLink)) {
		t.Fatalf("the link is not verbatim in:\n%s", raw)
	}
	if bytes.Contains(bytes.ReplaceAll(raw, []byte("\r\n"), nil), []byte("\n")) {
		t.Fatal("a bare LF in the message; every line must end with CRLF")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := msg.Header
	want := map[string]string{
		"From":                      `"Marquee" <no-reply@marquee.example.com>`,
		"To":                        `<ann@example.com>, "Bob Smith" <bob@example.com>`,
		"Reply-To":                  "<support@example.com>",
		"Subject":                   "Reset your password",
		"Date":                      "Wed, 05 Mar 2025 14:30:00 +0000",
		"Mime-Version":              "1.0",
		"Content-Type":              "text/plain; charset=utf-8",
		"Content-Transfer-Encoding": "7bit",
	}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if id := h.Get("Message-Id"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@marquee.example.com>") {
		t.Errorf("Message-ID = %q", id)
	}
	body, _ := io.ReadAll(msg.Body)
	if string(body) != "Hello,\r\nopen "+resetLink+" to reset it.\r\n\r\n" {
		t.Errorf("body = %q", body)
	}
}

func TestComposeNonASCII(t *testing.T) {
	t.Parallel()
	raw, _, _, err := compose("no-reply@example.com", Message{
		To:      []string{"Zoë Ünal <zoe@example.com>"},
		Subject: "Votre campagne « Été » a démarré",
		Text:    "Déjà en ligne : " + resetLink,
	}, composedAt)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	rawSubject := msg.Header.Get("Subject")
	if !strings.HasPrefix(rawSubject, "=?utf-8?q?") {
		t.Errorf("Subject is not Q-encoded: %q", rawSubject)
	}
	dec := new(mime.WordDecoder)
	if s, err := dec.DecodeHeader(rawSubject); err != nil || s != "Votre campagne « Été » a démarré" {
		t.Errorf("Subject decodes to %q, %v", s, err)
	}
	to, err := msg.Header.AddressList("To")
	if err != nil || to[0].Name != "Zoë Ünal" {
		t.Errorf("To = %v, %v", to, err)
	}
	if cte := msg.Header.Get("Content-Transfer-Encoding"); cte != "8bit" {
		t.Errorf("Content-Transfer-Encoding = %q, want 8bit", cte)
	}
	if !bytes.Contains(raw, []byte("Déjà en ligne : "+resetLink)) {
		t.Error("the UTF-8 text is not verbatim")
	}
}

func TestComposeTextAndHTML(t *testing.T) {
	t.Parallel()
	html := `<p>Open <a href="` + resetLink + `">this link</a>.</p>`
	raw, _, _, err := compose("no-reply@example.com", Message{
		To: []string{"ann@example.com"}, Subject: "Hi", Text: "Open " + resetLink, HTML: html,
	}, composedAt)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("Content-Type = %q", msg.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	var parts []string
	for {
		p, err := mr.NextRawPart() // raw: no transfer decoding, the bytes as they are in the file
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p)
		if cte := p.Header.Get("Content-Transfer-Encoding"); cte != "7bit" {
			t.Errorf("%s part: Content-Transfer-Encoding = %q", p.Header.Get("Content-Type"), cte)
		}
		parts = append(parts, p.Header.Get("Content-Type")+" | "+strings.TrimSpace(string(body)))
	}
	want := []string{"text/plain; charset=utf-8 | Open " + resetLink, "text/html; charset=utf-8 | " + html}
	if strings.Join(parts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("parts:\n%s\nwant:\n%s", strings.Join(parts, "\n"), strings.Join(want, "\n"))
	}
}

func TestComposeHTMLOnly(t *testing.T) {
	t.Parallel()
	raw, _, _, err := compose("no-reply@example.com", Message{To: []string{"a@example.com"}, Subject: "x", HTML: "<b>hi</b>"}, composedAt)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := mail.ReadMessage(bytes.NewReader(raw))
	if ct := msg.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("Content-Type = %q", ct)
	}
}

// SMTP carries lines of at most 998 octets: a longer text line is broken (still 8bit), a longer
// HTML line makes the HTML part quoted-printable.
func TestComposeLongLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 1500) // 3000 bytes
	raw, _, _, err := compose("no-reply@example.com", Message{To: []string{"a@example.com"}, Subject: "x", Text: long, HTML: "<p>" + long + "</p>"}, composedAt)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > maxLine {
			t.Fatalf("a line of %d bytes", len(line))
		}
	}
	if !strings.Contains(string(raw), "Content-Transfer-Encoding: 8bit") || !strings.Contains(string(raw), "Content-Transfer-Encoding: quoted-printable") {
		t.Fatalf("want an 8bit text part and a quoted-printable HTML part:\n%.600s", raw)
	}
}

func TestValidateRefusesHeaderInjectionAndBadInput(t *testing.T) {
	t.Parallel()
	ok := Message{To: []string{"a@example.com"}, Subject: "s", Text: "t"}
	cases := map[string]struct {
		edit  func(m *Message)
		field string
	}{
		"CRLF in subject":     {func(m *Message) { m.Subject = "Hi\r\nBcc: victim@example.com" }, "subject"},
		"LF in subject":       {func(m *Message) { m.Subject = "Hi\nX: y" }, "subject"},
		"CRLF in recipient":   {func(m *Message) { m.To = []string{"a@example.com\r\nBcc: v@example.com"} }, "to"},
		"CRLF in reply-to":    {func(m *Message) { m.ReplyTo = "a@example.com\r\nBcc: v@example.com" }, "reply_to"},
		"folded address":      {func(m *Message) { m.To = []string{"Ann\r\n <a@example.com>"} }, "to"},
		"not an address":      {func(m *Message) { m.To = []string{"not-an-address"} }, "to"},
		"no recipient":        {func(m *Message) { m.To = nil }, "to"},
		"too many recipients": {func(m *Message) { m.To = make([]string, MaxRecipients+1) }, "to"},
		"no body":             {func(m *Message) { m.Text = "" }, "body"},
		"subject too long":    {func(m *Message) { m.Subject = strings.Repeat("s", MaxSubjectLen+1) }, "subject"},
	}
	for name, c := range cases {
		m := ok
		c.edit(&m)
		err := Validate(m)
		var ae *apperr.Error
		if apperr.CodeOf(err) != apperr.EINVALID {
			t.Errorf("%s: Validate = %v, want EINVALID", name, err)
			continue
		}
		if ae = apperr.As(err); ae.Fields[c.field] == "" {
			t.Errorf("%s: fields %v, want %q", name, ae.Fields, c.field)
		}
		if _, _, _, err := compose("no-reply@example.com", m, composedAt); apperr.CodeOf(err) != apperr.EINVALID {
			t.Errorf("%s: compose = %v, want EINVALID", name, err)
		}
	}
	if err := Validate(ok); err != nil {
		t.Fatalf("Validate(valid) = %v", err)
	}
	if _, _, _, err := compose("no-reply@example.com\r\nBcc: v@example.com", ok, composedAt); apperr.CodeOf(err) != apperr.EINVALID {
		t.Errorf("compose with a CRLF sender = %v, want EINVALID", err)
	}
}
