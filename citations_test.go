package marquee_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The code cites the product specification (A §5, B §9), DESIGN.md (DESIGN.md §1.14), STYLE.md and
// STACK.md, none of which is in the repository. docs/requirements.md and docs/decisions.md carry each
// cited rule under its citation as a heading, so that a reader with only a clone can look it up.
// TestCitationsResolve fails on a citation that has no such heading.

// citationDocs are the documents whose headings resolve citations.
var citationDocs = []string{"docs/requirements.md", "docs/decisions.md"}

var (
	// A space, or a line break inside a comment: a citation may be split there ("(DESIGN.md\n// §1.12").
	sp = `(?:[ \t]|\n[ \t]*(?://+|\*+|#+)?[ \t]*)`
	// A section number and the ones listed after it: "§5", "§5, §8", "§5 and §8", "§4-§9", "§1.11, §2",
	// each perhaps with the title of what it cites: `§2 "Reports", §3 Report, §5`.
	num         = `[0-9]+(?:\.[0-9]+)*(?:` + sp + `"[^"\n]*"|` + sp + `[A-Z][A-Za-z]*)?`
	sectionList = `§ ?(` + num + `(?:(?:,|` + sp + `and|` + sp + `or|-|–|/)` + sp + `?§ ?` + num + `)*)`
	// The spec: "A §5", "B §9", "B §4, §5 and §9". The A or B stands alone ("NIST 800-63B §5" is not one).
	specCitation = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])([AB])` + sp + `?` + sectionList)
	// DESIGN.md: "DESIGN.md §1.14", "DESIGN §6", "DESIGN.md §1.8, §8".
	designCitation = regexp.MustCompile(`\bDESIGN(?:\.md)?` + sp + `+` + sectionList)
	// STYLE.md and STACK.md are cited by the title of a point ("STYLE.md \"One RTK Query api\"",
	// "STYLE \"Lazy routes\"") or as a whole ("STACK.md").
	guideCitation = regexp.MustCompile(`\b(STYLE|STACK)(?:(\.md)|\b)(?:` + sp + `+"([^"\n]+)")?`)
	sectionNumber = regexp.MustCompile(`([-–])?[^0-9]*?([0-9]+(?:\.[0-9]+)*)`)
	quotedTitle   = regexp.MustCompile(`"[^"\n]*"`)
	// A heading that a citation resolves to: "### B §9 Business constants", "### DESIGN.md §1.14 ...",
	// "### STYLE.md \"One error type, one mapping\"", "## STACK.md".
	headingLine   = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	specHeading   = regexp.MustCompile(`^([AB]) §([0-9]+(?:\.[0-9]+)*)\b`)
	designHeading = regexp.MustCompile(`^DESIGN\.md §([0-9]+(?:\.[0-9]+)*)\b`)
	guideHeading  = regexp.MustCompile(`^(STYLE|STACK)\.md(?: "([^"]+)")?`)
)

// citation is one cited section or point and where it is cited.
type citation struct {
	key   string // "A §5", "DESIGN.md §1.14", "STYLE.md \"One RTK Query api\"", "STACK.md"
	where string // path:line
}

// sections returns the section numbers of a list such as "5, §8", "4-§9" (a range: 4 to 9).
func sections(list string) []string {
	var out []string
	prev := -1
	list = quotedTitle.ReplaceAllString(list, "") // a title may hold digits
	for _, m := range sectionNumber.FindAllStringSubmatch(list, -1) {
		n := m[2]
		if m[1] != "" && prev >= 0 && !strings.Contains(n, ".") {
			if to, err := strconv.Atoi(n); err == nil {
				for i := prev + 1; i < to; i++ {
					out = append(out, strconv.Itoa(i))
				}
			}
		}
		out = append(out, n)
		prev = -1
		if !strings.Contains(n, ".") {
			prev, _ = strconv.Atoi(n)
		}
	}
	return out
}

// citationsIn returns the citations in one source text (path names it in the answers).
func citationsIn(path, src string) []citation {
	var out []citation
	add := func(key string, offset int) {
		line := 1 + strings.Count(src[:offset], "\n")
		out = append(out, citation{key: key, where: path + ":" + strconv.Itoa(line)})
	}
	for _, m := range specCitation.FindAllStringSubmatchIndex(src, -1) {
		doc := src[m[2]:m[3]]
		for _, n := range sections(src[m[4]:m[5]]) {
			add(doc+" §"+n, m[2])
		}
	}
	for _, m := range designCitation.FindAllStringSubmatchIndex(src, -1) {
		for _, n := range sections(src[m[2]:m[3]]) {
			add("DESIGN.md §"+n, m[0])
		}
	}
	for _, m := range guideCitation.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]] + ".md"
		switch {
		case m[6] >= 0:
			add(name+` "`+src[m[6]:m[7]]+`"`, m[0])
		case m[4] >= 0:
			add(name, m[0])
		}
	}
	return out
}

// citationHeadings returns the keys that the headings of the citation documents resolve.
func citationHeadings(t *testing.T) (keys map[string]bool, guidePoints map[string][]string) {
	t.Helper()
	keys = map[string]bool{}
	guidePoints = map[string][]string{} // "STYLE.md" -> the titles of its points
	for _, doc := range citationDocs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		for _, m := range headingLine.FindAllStringSubmatch(string(b), -1) {
			h := m[1]
			if s := specHeading.FindStringSubmatch(h); s != nil {
				keys[s[1]+" §"+s[2]] = true
			}
			if s := designHeading.FindStringSubmatch(h); s != nil {
				keys["DESIGN.md §"+s[1]] = true
			}
			if s := guideHeading.FindStringSubmatch(h); s != nil {
				keys[s[1]+".md"] = true
				if s[2] != "" {
					guidePoints[s[1]+".md"] = append(guidePoints[s[1]+".md"], s[2])
				}
			}
		}
	}
	return keys, guidePoints
}

// resolves reports whether key has a heading. A STYLE or STACK point may be cited by the start of its
// title ("Lazy routes" for "Lazy routes per section").
func resolves(key string, keys map[string]bool, guidePoints map[string][]string) bool {
	if keys[key] {
		return true
	}
	name, title, ok := strings.Cut(key, ` "`)
	if !ok {
		return false
	}
	title = strings.TrimSuffix(title, `"`)
	for _, p := range guidePoints[name] {
		if strings.HasPrefix(p, title) {
			return true
		}
	}
	return false
}

// sourceFiles returns the files of the repository that comments can cite in: Go, TypeScript and
// TSX sources, the scripts (JavaScript, shell, the Makefile) and the configuration files with
// comments (YAML, the Casbin model and roles), without dependencies and build output.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "dist", ".git", "var", "test-output", "test-results", "playwright-report":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".ts", ".tsx", ".mjs", ".js", ".sh", ".yaml", ".yml", ".conf", ".csv":
			files = append(files, path)
		default:
			if d.Name() == "Makefile" {
				files = append(files, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// generated marks a file that a tool writes (Go's convention, which tygo follows); its comments are
// copies of the Go source's.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

func TestCitationsResolve(t *testing.T) {
	keys, guidePoints := citationHeadings(t)
	missing := map[string][]string{}
	found := 0
	for _, path := range sourceFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		if generated.MatchString(src) || path == "citations_test.go" {
			continue
		}
		for _, c := range citationsIn(filepath.ToSlash(path), src) {
			found++
			if !resolves(c.key, keys, guidePoints) {
				missing[c.key] = append(missing[c.key], c.where)
			}
		}
	}
	// The code cites the spec well over a thousand times: far fewer means the expressions above no
	// longer match how the code writes its citations.
	if found < 1000 {
		t.Fatalf("found only %d citations; the citation expressions no longer match the code", found)
	}
	var names []string
	for k := range missing {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		where := missing[k]
		if len(where) > 5 {
			where = append(where[:5], "...")
		}
		t.Errorf("%s is cited but has no heading in %s: %s", k, strings.Join(citationDocs, " or "),
			strings.Join(where, ", "))
	}
}

// TestCitationPatterns pins how the code writes its citations.
func TestCitationPatterns(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"// B §9: spot price rounds up to 10", []string{"B §9"}},
		{"// (A §5 and §8)", []string{"A §5", "A §8"}},
		{"// A §2, §4, §5, §6, §8, §9.", []string{"A §2", "A §4", "A §5", "A §6", "A §8", "A §9"}},
		{"// the creative request (A §4-§9,", []string{"A §4", "A §5", "A §6", "A §7", "A §8", "A §9"}},
		{"// B §4, §5 and §9", []string{"B §4", "B §5", "B §9"}},
		{"// a sub-section (B §9.3)", []string{"B §9.3"}},
		{"// (B §2 \"Reports\", §3 Report, §5, §7 \"Reports\", §8).", []string{"B §2", "B §3", "B §5", "B §7", "B §8"}},
		{"// (B §2 \"Partner 2 program\", §7)", []string{"B §2", "B §7"}},
		{"// the password rule (NIST 800-63B §5.1.1.2)", nil},
		{"// without its CRLF (RFC 5322 §2.1.1)", nil},
		{"// queued (DESIGN §1.14).", []string{"DESIGN.md §1.14"}},
		{"// (DESIGN.md §1.11, §2; B §2 \"Partner program\")", []string{"B §2", "DESIGN.md §1.11", "DESIGN.md §2"}},
		{"// a password (DESIGN.md\n// §1.12, and more).", []string{"DESIGN.md §1.12"}},
		{" * by the partner's own card (DESIGN\n * §1.13): listed", []string{"DESIGN.md §1.13"}},
		{"// (STYLE.md \"One error type, one mapping\").", []string{`STYLE.md "One error type, one mapping"`}},
		{"// konva (DESIGN §6, STYLE \"Lazy routes\")", []string{"DESIGN.md §6", `STYLE.md "Lazy routes"`}},
		{"// 'database is locked' (STACK.md).", []string{"STACK.md"}},
		{"# The role hierarchy of B §6. Rules name\n#   user  (\"not for admins\", A §6)", []string{"A §6", "B §6"}},
		{"# generated from the Go DTOs (DESIGN.md\n# §6): `make types`.", []string{"DESIGN.md §6"}},
		{"const STYLES = { ok: 'green' }; const STYLE = 1", nil},
	}
	for _, c := range cases {
		var got []string
		for _, ct := range citationsIn("x.go", c.src) {
			got = append(got, ct.key)
		}
		sort.Strings(got)
		sort.Strings(c.want)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
	lines := citationsIn("x.go", "package x\n\n// (DESIGN.md\n// §1.12)\n// B §9\n")
	if len(lines) != 2 || lines[0].where != "x.go:5" || lines[1].where != "x.go:3" || lines[1].key != "DESIGN.md §1.12" {
		t.Errorf("lines: %+v", lines)
	}
}

// markdownLink is a link of a Markdown document: [text](target).
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinksResolve: every link from README.md and docs/*.md to a file of the repository names
// one that exists. requirements.md and decisions.md link the rules to the code and the tests that
// enforce them, so a file that moves must take its links along.
func TestDocLinksResolve(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, doc := range append(docs, "README.md") {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range markdownLink.FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if !strings.ContainsAny(target, "./") || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue // an anchor, a web address, or code that looks like a link (Get[*T](built))
				}
				checked++
				if _, err := os.Stat(filepath.Join(filepath.Dir(doc), target)); err != nil {
					t.Errorf("%s:%d: the link to %s names no file", doc, i+1, target)
				}
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d links were checked: did the link syntax of the docs change?", checked)
	}
}
