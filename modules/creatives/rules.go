package creatives

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"marquee/platform/apperr"
)

// Field bounds of the content and creative forms.
const (
	maxNameLen        = 255
	maxAltLen         = 255
	maxDescriptionLen = 2000
	maxTagLen         = 40
	maxTags           = 30
	maxMessageLen     = 2000
	maxFullNameLen    = 100
)

// normalizeTags applies A §5's tag rules on the server too: trimmed, uppercased, empty and duplicate
// tags dropped, first occurrence kept.
func normalizeTags(tags []string) ([]string, error) {
	out := []string{}
	for _, t := range tags {
		t = strings.ToUpper(strings.Join(strings.Fields(t), " "))
		if t == "" || slices.Contains(out, t) {
			continue
		}
		if utf8.RuneCountInString(t) > maxTagLen || strings.Contains(t, "|") {
			return nil, apperr.Field("tags", "Tags are at most 40 characters, without '|'.")
		}
		out = append(out, t)
	}
	if len(out) > maxTags {
		return nil, apperr.Field("tags", "At most 30 tags.")
	}
	return out, nil
}

// normalizeScopes keeps the known scopes (A §4), each once, in a fixed order. At least one is needed.
func normalizeScopes(scopes []string) ([]string, error) {
	var out []string
	for _, s := range []string{ScopeStandard, ScopeAmbassador, ScopeCertified} {
		for _, given := range scopes {
			if strings.EqualFold(strings.TrimSpace(given), s) {
				out = append(out, s)
				break
			}
		}
	}
	for _, given := range scopes {
		g := strings.ToLower(strings.TrimSpace(given))
		if g != ScopeStandard && g != ScopeAmbassador && g != ScopeCertified {
			return nil, apperr.Field("scopes", "Scopes are standard, ambassador or certified.")
		}
	}
	if len(out) == 0 {
		return nil, apperr.Field("scopes", "Choose at least one scope.")
	}
	return out, nil
}

// normalizeContentType accepts the content types of A §4; the older doc reads as document.
func normalizeContentType(t string) (string, error) {
	switch t = strings.ToLower(strings.TrimSpace(t)); t {
	case ContentDocument, ContentLegacyDoc:
		return ContentDocument, nil
	case ContentImage, ContentVideo, ContentYoutube:
		return t, nil
	}
	return "", apperr.Field("type", "Type is document, image, video or youtube.")
}

// normalizeContentFields checks and normalises the type, scopes and tags of a content form.
func normalizeContentFields(typ string, scopes, tags []string) (string, []string, []string, error) {
	t, err := normalizeContentType(typ)
	if err != nil {
		return "", nil, nil, err
	}
	s, err := normalizeScopes(scopes)
	if err != nil {
		return "", nil, nil, err
	}
	g, err := normalizeTags(tags)
	if err != nil {
		return "", nil, nil, err
	}
	return t, s, g, nil
}

// readContentType is the type as the API shows a stored value (A §4: doc reads as document).
func readContentType(stored string) string {
	if stored == ContentLegacyDoc {
		return ContentDocument
	}
	return stored
}

var youtubeIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{11}$`)

// youtubeID takes the video id from the v parameter of a YouTube link (A §5).
func youtubeID(link string) (string, error) {
	link = strings.TrimSpace(link)
	if link != "" && !strings.Contains(link, "://") {
		link = "https://" + link
	}
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", apperr.Field("youtube", MsgYoutubeLink)
	}
	host := strings.ToLower(u.Hostname())
	if host != "youtube.com" && !strings.HasSuffix(host, ".youtube.com") {
		return "", apperr.Field("youtube", MsgYoutubeLink)
	}
	id := u.Query().Get("v")
	if !youtubeIDPattern.MatchString(id) {
		return "", apperr.Field("youtube", MsgYoutubeLink)
	}
	return id, nil
}

// cleanText trims s and checks its length; empty is allowed unless required.
func cleanText(field, s string, maxLen int, required bool) (string, error) {
	s = strings.TrimSpace(s)
	if required && s == "" {
		return "", apperr.Field(field, "This field is required.")
	}
	if utf8.RuneCountInString(s) > maxLen {
		return "", apperr.Field(field, "This field is too long.")
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }) {
		return "", apperr.Field(field, "This field has characters that are not allowed.")
	}
	return s, nil
}
