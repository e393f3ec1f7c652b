package creatives

import (
	"slices"
	"testing"
)

func TestYoutubeID(t *testing.T) {
	for _, tc := range []struct {
		link, want string
	}{
		{"https://www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"},
		{"https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "dQw4w9WgXcQ"},
		{"https://m.youtube.com/watch?feature=share&v=a-b_c1234XY", "a-b_c1234XY"},
		{"www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"},
		{"  http://www.youtube.com/watch?v=dQw4w9WgXcQ  ", "dQw4w9WgXcQ"},
		{"https://www.youtube.com/watch?list=PL123", ""},       // no v parameter
		{"https://youtu.be/dQw4w9WgXcQ", ""},                   // no v parameter
		{"https://www.youtube.com/watch?v=", ""},               // empty v
		{"https://www.youtube.com/watch?v=short", ""},          // not an id
		{"https://www.youtube.com/watch?v=dQw4w9WgXcQ%3C", ""}, // not an id
		{"https://evil.example/watch?v=dQw4w9WgXcQ", ""},       // not YouTube
		{"https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ", ""},
		{"javascript:alert(1)//youtube.com/watch?v=dQw4w9WgXcQ", ""},
		{"", ""},
	} {
		got, err := youtubeID(tc.link)
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("youtubeID(%q) = %q, %v; want %q", tc.link, got, err, tc.want)
		}
	}
}

func TestNormalizeTags(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
	}{
		{nil, []string{}},
		{[]string{"sale"}, []string{"SALE"}},
		{[]string{" sale ", "Sale", "SALE"}, []string{"SALE"}},
		{[]string{"", "  ", "b", "a"}, []string{"B", "A"}},
		{[]string{"spring  sale", "Spring sale"}, []string{"SPRING SALE"}},
		{[]string{"émoi"}, []string{"ÉMOI"}},
	} {
		got, err := normalizeTags(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("normalizeTags(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := normalizeTags([]string{"a|b"}); err == nil {
		t.Error("a tag with the separator was accepted")
	}
	many := make([]string, maxTags+1)
	for i := range many {
		many[i] = string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	if _, err := normalizeTags(many); err == nil {
		t.Error("31 tags were accepted")
	}
}

func TestNormalizeScopesAndTypes(t *testing.T) {
	got, err := normalizeScopes([]string{"certified", "Standard", "standard"})
	if err != nil || !slices.Equal(got, []string{"standard", "certified"}) {
		t.Fatalf("scopes = %v %v", got, err)
	}
	for _, bad := range [][]string{nil, {}, {"gold"}, {"standard", "gold"}} {
		if _, err := normalizeScopes(bad); err == nil {
			t.Errorf("scopes %v accepted", bad)
		}
	}
	for in, want := range map[string]string{"doc": "document", "Document": "document", "image": "image", "video": "video", "youtube": "youtube"} {
		if got, err := normalizeContentType(in); err != nil || got != want {
			t.Errorf("type %q = %q %v", in, got, err)
		}
	}
	if _, err := normalizeContentType("audio"); err == nil {
		t.Error("audio accepted")
	}
	if readContentType("doc") != "document" || readContentType("video") != "video" {
		t.Error("readContentType")
	}
}

func TestThumbSizeKeepsTheRatio(t *testing.T) {
	for _, tc := range [][4]int{{1400, 400, 320, 91}, {400, 1400, 91, 320}, {100, 50, 100, 50}, {20000, 1, 320, 1}} {
		if w, h := thumbSize(tc[0], tc[1]); w != tc[2] || h != tc[3] {
			t.Errorf("thumbSize(%d, %d) = %d, %d", tc[0], tc[1], w, h)
		}
	}
}
