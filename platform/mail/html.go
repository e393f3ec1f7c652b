package mail

import (
	"bytes"
	"html/template"
)

// Letter is what an email says, laid out as the HTML part of its message, so that it reads well in
// a mail client: the Marquee mark, a heading, the paragraphs, a small table of key figures, one
// clear button for the link, and a footer. Each module writes its text part by hand and its Letter
// beside it; the tests check that both parts carry the same links.
//
// The layout is for mail readers, not browsers: tables, inline CSS only (readers drop <style> and
// external sheets), no images (most readers block them until asked; the mark is drawn with
// tables), and a column at most 560 px wide that shrinks to a phone's width. The one exception is
// Picture: a picture carried in the message itself (Message.Inline), which needs no fetch.
type Letter struct {
	Title    string   // the heading, e.g. "Reset your password"
	Greeting string   // "Hello Ana," (optional)
	Intro    []string // paragraphs before the figures and the button
	// Picture is shown after the intro: an inline picture of the message (cid:), when it has one.
	Picture *Picture
	Facts   []Fact  // the key figures, a two-column table
	Tables  []Table // one small table per item (the digest's campaigns), each with its link
	Note    string  // a note from our team, set apart
	// NoteTitle heads the note; empty is "A note from our team".
	NoteTitle string
	Button    *Link    // the one action
	Outro     []string // paragraphs after the button
	Footer    string   // why the reader gets this email (optional)
	// FooterLink is a link after Footer, e.g. the setting that turns the email off.
	FooterLink *Link
}

// Picture is an inline picture of the message (Message.Inline with this ContentID), shown at most
// 512 px wide (the letter's column less its padding) and scaled down on a phone; Width and Height
// are its pixels, so the reader keeps its place before it loads; Alt says what it shows, and
// Caption is written under it.
type Picture struct {
	ContentID     string
	Width, Height int
	Alt, Caption  string
}

// CID is the picture's address in the HTML (RFC 2392). html/template refuses a cid: URL it does not
// know as safe, so it is built here from a Content-ID that Validate allows ([A-Za-z0-9._-@]).
func (p Picture) CID() template.URL {
	if !contentID.MatchString(p.ContentID) {
		return "" // a picture Validate would refuse: no address rather than an unchecked one
	}
	return template.URL("cid:" + p.ContentID) // #nosec G203 -- checked just above: letters, digits and ._-@ only, nothing that can leave the attribute or change the scheme
}

// DisplayWidth is the width the picture is shown at, in CSS pixels: its own, at most 512.
func (p Picture) DisplayWidth() int { return min(p.Width, 512) }

// DisplayHeight keeps the picture's shape at DisplayWidth.
func (p Picture) DisplayHeight() int {
	if p.Width <= 0 {
		return p.Height
	}
	return p.Height * p.DisplayWidth() / p.Width
}

// Fact is one row of a table of figures.
type Fact struct{ Label, Value string }

// Link is a labelled URL.
type Link struct{ Label, URL string }

// Table is a titled table of figures with an optional link under it.
type Table struct {
	Title string
	Facts []Fact
	Link  *Link
}

// Signature closes every email.
const Signature = "The Marquee team"

// Colours of the web app (webapp/src/index.css: brand-700, slate, amber).
var letterHTML = template.Must(template.New("letter").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>{{.Title}}</title>
</head>
<body style="margin:0;padding:0;background-color:#f1f5f9;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f1f5f9;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;width:100%;">
<tr><td style="padding:0 4px 16px 4px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>
<td width="32" height="32" align="center" valign="middle" style="width:32px;height:32px;background-color:#4338ca;border-radius:8px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td width="24" height="15" align="center" valign="middle" style="width:24px;height:15px;background-color:#fbbf24;border-radius:2px;font-family:Arial,Helvetica,sans-serif;font-size:11px;line-height:15px;font-weight:bold;color:#4338ca;">M</td></tr></table>
</td>
<td style="padding-left:10px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:20px;font-weight:600;color:#0f172a;">Marquee</td>
</tr></table>
</td></tr>
<tr><td style="background-color:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:28px 24px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:24px;color:#334155;">
<h1 style="margin:0 0 16px 0;font-size:22px;line-height:28px;font-weight:600;color:#0f172a;">{{.Title}}</h1>
{{- if .Greeting}}
<p style="margin:0 0 16px 0;">{{.Greeting}}</p>
{{- end}}
{{- range .Intro}}
<p style="margin:0 0 16px 0;">{{.}}</p>
{{- end}}
{{- with .Picture}}
<img src="{{.CID}}" width="{{.DisplayWidth}}" height="{{.DisplayHeight}}" alt="{{.Alt}}" style="display:block;width:100%;max-width:{{.DisplayWidth}}px;height:auto;margin:0 0 8px 0;border:0;border-radius:8px;">
{{- if .Caption}}
<p style="margin:0 0 20px 0;font-size:13px;line-height:20px;color:#64748b;">{{.Caption}}</p>
{{- end}}
{{- end}}
{{- if .Facts}}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px 0;border:1px solid #e2e8f0;border-radius:8px;border-collapse:separate;">
{{- range $i, $f := .Facts}}
<tr><td style="padding:8px 12px;font-size:14px;color:#64748b;{{if $i}}border-top:1px solid #e2e8f0;{{end}}">{{$f.Label}}</td><td align="right" style="padding:8px 12px;font-size:14px;font-weight:600;color:#0f172a;{{if $i}}border-top:1px solid #e2e8f0;{{end}}">{{$f.Value}}</td></tr>
{{- end}}
</table>
{{- end}}
{{- range .Tables}}
<p style="margin:0 0 8px 0;font-weight:600;color:#0f172a;">{{.Title}}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 8px 0;border:1px solid #e2e8f0;border-radius:8px;border-collapse:separate;">
{{- range $i, $f := .Facts}}
<tr><td style="padding:8px 12px;font-size:14px;color:#64748b;{{if $i}}border-top:1px solid #e2e8f0;{{end}}">{{$f.Label}}</td><td align="right" style="padding:8px 12px;font-size:14px;font-weight:600;color:#0f172a;{{if $i}}border-top:1px solid #e2e8f0;{{end}}">{{$f.Value}}</td></tr>
{{- end}}
</table>
{{- if .Link}}
<p style="margin:0 0 20px 0;font-size:14px;"><a href="{{.Link.URL}}" style="color:#4338ca;font-weight:600;">{{.Link.Label}}</a></p>
{{- end}}
{{- end}}
{{- if .Note}}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px 0;"><tr><td style="border-left:4px solid #a5b4fc;background-color:#eef2ff;padding:12px 16px;font-size:15px;color:#312e81;"><strong>{{if .NoteTitle}}{{.NoteTitle}}{{else}}A note from our team{{end}}</strong><br>{{.Note}}</td></tr></table>
{{- end}}
{{- if .Button}}
<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px 0;"><tr><td style="border-radius:8px;background-color:#4338ca;"><a href="{{.Button.URL}}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:600;line-height:20px;color:#ffffff;text-decoration:none;border-radius:8px;">{{.Button.Label}}</a></td></tr></table>
{{- end}}
{{- range .Outro}}
<p style="margin:0 0 16px 0;">{{.}}</p>
{{- end}}
<p style="margin:0;">{{.Signature}}</p>
{{- if .Button}}
<p style="margin:24px 0 0 0;font-size:13px;line-height:20px;color:#64748b;">If the button does not work, paste this link into your browser:<br><a href="{{.Button.URL}}" style="color:#4338ca;word-break:break-all;">{{.Button.URL}}</a></p>
{{- end}}
</td></tr>
{{- if or .Footer .FooterLink}}
<tr><td style="padding:16px 8px 0 8px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:13px;line-height:20px;color:#64748b;text-align:center;">{{.Footer}}{{if .FooterLink}} <a href="{{.FooterLink.URL}}" style="color:#4338ca;">{{.FooterLink.Label}}</a>{{end}}</td></tr>
{{- end}}
</table>
</td></tr>
</table>
</body>
</html>
`))

// HTML renders the letter. html/template escapes every value for where it stands (a name with a
// "<" stays text; a URL in href is checked, a javascript: one never becomes a link).
func (l Letter) HTML() string {
	var b bytes.Buffer
	data := struct {
		Letter
		Signature string
	}{l, Signature}
	if err := letterHTML.Execute(&b, data); err != nil {
		// The template is fixed and its data plain strings: this is a programming error, and the
		// text part still carries the email.
		return ""
	}
	return b.String()
}
