package testkit

import (
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	netmail "net/mail"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"marquee/platform/mail"
)

// Mail is an email as its reader gets it: the subject and the two parts of its body.
type Mail struct {
	Subject string
	Text    string
	HTML    string
	// Hrefs are the links of the HTML part, in order.
	Hrefs []string
}

// textURL finds the links of a text part (an address ends at a space or a line end).
var textURL = regexp.MustCompile(`https?://[^\s"<>]+`)

// ParseMail parses a raw message strictly, as a mail reader would (net/mail, then mime/multipart),
// and fails the test unless it is multipart/alternative with exactly a UTF-8
// text/plain part then a text/html part, the HTML part is one document with inline CSS only (no
// <style>, stylesheet, script or class) and a phone-friendly viewport, and both parts carry the
// same links: every link of the HTML part is in the text part, and every link of the text part
// into the app (base) is a link of the HTML part.
func ParseMail(t testing.TB, raw, base string) Mail {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatalf("net/mail: %v\n%s", err, raw)
	}
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("subject: %v", err)
	}
	out := Mail{Subject: subject}
	if msg.Header.Get("MIME-Version") != "1.0" {
		t.Errorf("%s: MIME-Version = %q", subject, msg.Header.Get("MIME-Version"))
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" || params["boundary"] == "" {
		t.Fatalf("%s: Content-Type %q (%v): want multipart/alternative with a boundary", subject, msg.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	var types []string
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: mime/multipart: %v", subject, err)
		}
		pt, pp, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if err != nil || strings.ToLower(pp["charset"]) != "utf-8" {
			t.Fatalf("%s: part Content-Type %q (%v): want a utf-8 charset", subject, p.Header.Get("Content-Type"), err)
		}
		var body io.Reader = p
		switch cte := strings.ToLower(p.Header.Get("Content-Transfer-Encoding")); cte {
		case "7bit", "8bit", "":
		case "quoted-printable":
			body = quotedprintable.NewReader(p)
		default:
			t.Fatalf("%s: part %s has transfer encoding %q", subject, pt, cte)
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatalf("%s: part %s: %v", subject, pt, err)
		}
		types = append(types, pt)
		switch pt {
		case "text/plain":
			out.Text = strings.ReplaceAll(string(b), "\r\n", "\n")
		case "text/html":
			out.HTML = string(b)
		}
	}
	if !slices.Equal(types, []string{"text/plain", "text/html"}) {
		t.Fatalf("%s: parts %v, want [text/plain text/html] (plain first: readers show the last they understand)", subject, types)
	}
	out.Hrefs = checkHTML(t, subject, out.HTML)

	textLinks := textURL.FindAllString(out.Text, -1)
	for i, l := range textLinks {
		textLinks[i] = strings.TrimRight(l, ".,;:)")
	}
	for _, h := range out.Hrefs {
		if !slices.Contains(textLinks, h) {
			t.Errorf("%s: the HTML part links %s, which the text part does not carry (text links %v)", subject, h, textLinks)
		}
	}
	for _, l := range textLinks {
		if strings.HasPrefix(l, strings.TrimRight(base, "/")+"/") && !slices.Contains(out.Hrefs, l) {
			t.Errorf("%s: the text part links %s, which is no link of the HTML part (%v)", subject, l, out.Hrefs)
		}
	}
	return out
}

// checkHTML walks the HTML part and returns its links.
func checkHTML(t testing.TB, subject, doc string) []string {
	t.Helper()
	if _, err := html.Parse(strings.NewReader(doc)); err != nil {
		t.Fatalf("%s: HTML: %v", subject, err)
	}
	var hrefs []string
	viewport := false
	z := html.NewTokenizer(strings.NewReader(doc))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				t.Fatalf("%s: HTML: %v", subject, z.Err())
			}
			break
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		attr := map[string]string{}
		for _, a := range tok.Attr {
			attr[a.Key] = a.Val
		}
		switch tok.Data {
		case "style", "script", "link", "img":
			t.Errorf("%s: the HTML part has a <%s>: inline CSS only, and nothing to fetch", subject, tok.Data)
		case "meta":
			viewport = viewport || (attr["name"] == "viewport" && strings.Contains(attr["content"], "width=device-width"))
		case "a":
			if attr["href"] == "" {
				t.Errorf("%s: a link without href", subject)
			}
			hrefs = append(hrefs, attr["href"])
		}
		if _, ok := attr["class"]; ok {
			t.Errorf("%s: <%s class=%q>: mail readers drop style sheets, so style inline", subject, tok.Data, attr["class"])
		}
	}
	if !viewport {
		t.Errorf("%s: no width=device-width viewport: phones would zoom out", subject)
	}
	if !strings.Contains(doc, "max-width:560px") {
		t.Errorf("%s: the column must be at most 560 px wide", subject)
	}
	return hrefs
}

// RenderMail composes m as the file sender writes it to disk (the same bytes SMTP would carry)
// and returns the raw message.
func RenderMail(t testing.TB, m mail.Message) string {
	t.Helper()
	dir := t.TempDir()
	if err := mail.NewFileSender(dir).Send(t.Context(), "Marquee <no-reply@marquee.test>", m); err != nil {
		t.Fatalf("compose %q: %v", m.Subject, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if len(files) != 1 {
		t.Fatalf("want one .eml file, got %v", files)
	}
	raw, err := os.ReadFile(files[0]) // #nosec G304 -- the file the test's sender just wrote
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
