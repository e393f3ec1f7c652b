// Package mail sends the application's e-mail through an outbox (DESIGN.md §1.8): a message is
// stored in mail_outbox in the caller's transaction, and a job delivers it later through a Sender
// (SMTP when configured, .eml files otherwise), retrying with backoff. Nothing is lost: a message
// commits with the change that caused it, and is kept whether it is sent or fails for good.
package mail

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"net/textproto"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"marquee/platform/apperr"
	"marquee/platform/ids"
)

// Message is an e-mail to send. To holds addresses as "user@example.com" or
// "Name <user@example.com>". Text, HTML or both make the body.
type Message struct {
	To      []string
	Subject string
	Text    string
	HTML    string
	ReplyTo string
	// Inline are pictures the HTML part shows by Content-ID (<img src="cid:ID">): they travel
	// with the HTML in a multipart/related part (RFC 2387), so a reader shows them without
	// fetching anything; the text part is unchanged. At most MaxInline, MaxInlineBytes in all.
	Inline []Inline
}

// Inline is a picture carried in the message: ContentID without its angle brackets
// ("preview@marquee"), its type (image/png, image/jpeg or image/gif, checked against the bytes)
// and its bytes.
type Inline struct {
	ContentID   string `json:"cid"`
	ContentType string `json:"type"`
	Data        []byte `json:"data"`
}

// Sender delivers one message now.
type Sender interface {
	// Send delivers m from the address from. A returned error means the message may not have
	// been delivered; the dispatcher then retries it.
	Send(ctx context.Context, from string, m Message) error
}

// Limits of a message, to keep rows, headers and SMTP sessions within reason.
const (
	MaxRecipients = 50
	MaxSubjectLen = 400     // characters
	MaxBodyLen    = 1 << 20 // bytes, Text and HTML each
	// MaxInline and MaxInlineBytes bound a message's inline pictures: each is stored in the
	// outbox row and sent base64 (a third larger) on every attempt, and readers such as Gmail
	// clip a message past about 100 KB of HTML but not its images; 512 KB holds a 560 px
	// preview PNG of a face several times over.
	MaxInline      = 4
	MaxInlineBytes = 512 << 10
)

// contentID is what Validate accepts as a Content-ID: an RFC 2392 msg-id of plain characters,
// so it needs no quoting in the header nor escaping in the cid: URL.
var contentID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}@[A-Za-z0-9.-]{1,64}$`)

// Validate checks m and returns EINVALID with a message per bad field: to, reply_to, subject,
// body. A CR or LF in a header value is refused, so no input can add a header.
func Validate(m Message) error {
	fields := map[string]string{}
	if len(m.To) == 0 {
		fields["to"] = "At least one recipient is required."
	} else if len(m.To) > MaxRecipients {
		fields["to"] = fmt.Sprintf("At most %d recipients.", MaxRecipients)
	}
	for _, to := range m.To {
		if _, err := parseAddress(to); err != nil {
			fields["to"] = fmt.Sprintf("Invalid recipient %q.", to)
			break
		}
	}
	if m.ReplyTo != "" {
		if _, err := parseAddress(m.ReplyTo); err != nil {
			fields["reply_to"] = fmt.Sprintf("Invalid reply-to address %q.", m.ReplyTo)
		}
	}
	switch {
	case hasLineBreak(m.Subject) || !utf8.ValidString(m.Subject):
		fields["subject"] = "The subject must be one line of text."
	case utf8.RuneCountInString(m.Subject) > MaxSubjectLen:
		fields["subject"] = fmt.Sprintf("The subject is longer than %d characters.", MaxSubjectLen)
	}
	switch {
	case m.Text == "" && m.HTML == "":
		fields["body"] = "A text or HTML body is required."
	case len(m.Text) > MaxBodyLen || len(m.HTML) > MaxBodyLen:
		fields["body"] = "The body is too long."
	case !utf8.ValidString(m.Text) || !utf8.ValidString(m.HTML):
		fields["body"] = "The body must be UTF-8 text."
	}
	if msg := validateInline(m); msg != "" {
		fields["inline"] = msg
	}
	if len(fields) > 0 {
		return apperr.Invalid("Invalid e-mail message.", fields)
	}
	return nil
}

// validateInline checks the inline pictures; "" when they are fine.
func validateInline(m Message) string {
	if len(m.Inline) == 0 {
		return ""
	}
	if m.HTML == "" {
		return "Inline pictures need an HTML part."
	}
	if len(m.Inline) > MaxInline {
		return fmt.Sprintf("At most %d inline pictures.", MaxInline)
	}
	total := 0
	seen := map[string]bool{}
	for _, in := range m.Inline {
		total += len(in.Data)
		switch {
		case !contentID.MatchString(in.ContentID) || seen[in.ContentID]:
			return fmt.Sprintf("Invalid or repeated Content-ID %q.", in.ContentID)
		case in.ContentType != "image/png" && in.ContentType != "image/jpeg" && in.ContentType != "image/gif":
			return fmt.Sprintf("Inline pictures are PNG, JPEG or GIF, not %q.", in.ContentType)
		case len(in.Data) == 0 || http.DetectContentType(in.Data) != in.ContentType:
			return fmt.Sprintf("The picture %q is not a %s.", in.ContentID, in.ContentType)
		}
		seen[in.ContentID] = true
	}
	if total > MaxInlineBytes {
		return fmt.Sprintf("The inline pictures are larger than %d KB.", MaxInlineBytes>>10)
	}
	return ""
}

// parseAddress parses one RFC 5322 address, refusing line breaks that net/mail would accept as
// folding whitespace.
func parseAddress(s string) (*mail.Address, error) {
	if hasLineBreak(s) {
		return nil, fmt.Errorf("line break in address %q", s)
	}
	return mail.ParseAddress(s)
}

func hasLineBreak(s string) bool { return strings.ContainsAny(s, "\r\n") }

// compose renders m as an RFC 5322 message with CRLF line endings, and returns it with the
// envelope sender and recipients (bare addresses) for SMTP.
//
// Bodies use 7bit or 8bit transfer encoding, never quoted-printable or base64, so links in them
// (password reset, invitations) appear verbatim in .eml files and raw mail sources; end-to-end
// tests grep them there. SMTP limits a line to 998 octets (RFC 5322 §2.1.1): a longer text line
// is broken, and an HTML part with one falls back to quoted-printable, as HTML does not care where
// its lines break but a broken attribute would.
func compose(from string, m Message, now time.Time) (raw []byte, envelopeFrom string, rcpts []string, err error) {
	if err := Validate(m); err != nil {
		return nil, "", nil, err
	}
	fromAddr, err := parseAddress(from)
	if err != nil {
		return nil, "", nil, apperr.Field("from", fmt.Sprintf("Invalid sender address %q.", from))
	}
	to := make([]string, len(m.To))
	rcpts = make([]string, len(m.To))
	for i, s := range m.To {
		a, _ := parseAddress(s) // Validate checked it
		to[i] = a.String()
		rcpts[i] = a.Address
	}

	var b bytes.Buffer
	header := func(name, value string) { b.WriteString(name + ": " + value + "\r\n") }
	header("Date", now.Format(time.RFC1123Z))
	header("From", fromAddr.String())
	header("To", foldList(to))
	if m.ReplyTo != "" {
		a, _ := parseAddress(m.ReplyTo)
		header("Reply-To", a.String())
	}
	header("Subject", encodeSubject(m.Subject))
	header("Message-ID", "<"+ids.New()+"@"+domainOf(fromAddr.Address)+">")
	header("MIME-Version", "1.0")

	// The HTML part: the HTML alone, or the HTML with its pictures (multipart/related).
	htmlBody, htmlCTE := encodeBody("text/html", m.HTML)
	htmlHeader := textproto.MIMEHeader{"Content-Type": {"text/html; charset=utf-8"}, "Content-Transfer-Encoding": {htmlCTE}}
	if len(m.Inline) > 0 {
		if htmlHeader, htmlBody, err = related(htmlHeader, htmlBody, m.Inline); err != nil {
			return nil, "", nil, apperr.Internal(err)
		}
	}

	switch {
	case m.Text != "" && m.HTML != "":
		mw := multipart.NewWriter(&b)
		header("Content-Type", "multipart/alternative; boundary="+mw.Boundary())
		b.WriteString("\r\n")
		// Plain text first: a reader shows the last part it understands (RFC 2046 §5.1.4).
		body, cte := encodeBody("text/plain", m.Text)
		if err := writePart(mw, textproto.MIMEHeader{"Content-Type": {"text/plain; charset=utf-8"}, "Content-Transfer-Encoding": {cte}}, body); err != nil {
			return nil, "", nil, apperr.Internal(err)
		}
		if err := writePart(mw, htmlHeader, htmlBody); err != nil {
			return nil, "", nil, apperr.Internal(err)
		}
		if err := mw.Close(); err != nil {
			return nil, "", nil, apperr.Internal(err)
		}
	case m.HTML != "" && len(m.Inline) > 0:
		header("Content-Type", htmlHeader.Get("Content-Type"))
		b.WriteString("\r\n")
		b.Write(htmlBody)
	default:
		mediaType, text := "text/plain", m.Text
		if m.Text == "" {
			mediaType, text = "text/html", m.HTML
		}
		body, cte := encodeBody(mediaType, text)
		header("Content-Type", mediaType+"; charset=utf-8")
		header("Content-Transfer-Encoding", cte)
		b.WriteString("\r\n")
		b.Write(body)
	}
	return b.Bytes(), fromAddr.Address, rcpts, nil
}

// related is the multipart/related part (RFC 2387) of an HTML part and its pictures: the HTML
// first (the root), then each picture with its Content-ID, base64.
func related(htmlHeader textproto.MIMEHeader, htmlBody []byte, inline []Inline) (textproto.MIMEHeader, []byte, error) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	if err := writePart(w, htmlHeader, htmlBody); err != nil {
		return nil, nil, err
	}
	for i, in := range inline {
		if err := writePart(w, textproto.MIMEHeader{
			"Content-Type":              {in.ContentType},
			"Content-Transfer-Encoding": {"base64"},
			"Content-ID":                {"<" + in.ContentID + ">"},
			"Content-Disposition":       {fmt.Sprintf("inline; filename=\"picture-%d.%s\"", i+1, strings.TrimPrefix(in.ContentType, "image/"))},
		}, base64Lines(in.Data)); err != nil {
			return nil, nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, nil, err
	}
	return textproto.MIMEHeader{"Content-Type": {`multipart/related; type="text/html"; boundary=` + w.Boundary()}}, b.Bytes(), nil
}

// writePart writes one part of w.
func writePart(w *multipart.Writer, h textproto.MIMEHeader, body []byte) error {
	pw, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	_, err = pw.Write(body)
	return err
}

// base64Lines is data in base64, in lines of 76 characters (RFC 2045 §6.8).
func base64Lines(data []byte) []byte {
	enc := base64.StdEncoding.EncodeToString(data)
	var b bytes.Buffer
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
	return b.Bytes()
}

// maxLine is the longest line SMTP carries, without its CRLF (RFC 5322 §2.1.1).
const maxLine = 998

// encodeBody returns the body with CRLF line endings and its transfer encoding.
func encodeBody(mediaType, s string) ([]byte, string) {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"), "\n")
	long := false
	for _, l := range lines {
		if len(l) > maxLine {
			long = true
			break
		}
	}
	if long && mediaType == "text/html" {
		var b bytes.Buffer
		qp := quotedprintable.NewWriter(&b)
		_, _ = qp.Write([]byte(strings.Join(lines, "\r\n"))) // into a bytes.Buffer, which cannot fail
		_ = qp.Close()
		return append(b.Bytes(), "\r\n"...), "quoted-printable"
	}
	var b bytes.Buffer
	for _, l := range lines {
		for len(l) > maxLine {
			cut := maxLine
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			b.WriteString(l[:cut] + "\r\n")
			l = l[cut:]
		}
		b.WriteString(l + "\r\n")
	}
	cte := "7bit"
	for _, c := range b.Bytes() {
		if c >= 0x80 {
			cte = "8bit"
			break
		}
	}
	return b.Bytes(), cte
}

// encodeSubject Q-encodes a subject that is not plain ASCII (RFC 2047), folding between encoded
// words so that no header line grows past what mail readers expect.
func encodeSubject(s string) string {
	enc := mime.QEncoding.Encode("utf-8", s)
	return strings.ReplaceAll(enc, "?= =?", "?=\r\n =?")
}

// foldList joins addresses, folding the header after a comma when the line would pass 78
// characters (RFC 5322 §2.2.3).
func foldList(items []string) string {
	var b strings.Builder
	lineLen := len("To: ")
	for i, it := range items {
		if i > 0 {
			if lineLen+2+len(it) > 78 {
				b.WriteString(",\r\n ")
				lineLen = 1
			} else {
				b.WriteString(", ")
				lineLen += 2
			}
		}
		b.WriteString(it)
		lineLen += len(it)
	}
	return b.String()
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return "localhost"
}
