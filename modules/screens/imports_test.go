package screens_test

import (
	"bufio"
	"bytes"
	"fmt"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"marquee/modules/campaigns"
	"marquee/modules/screens"
	"marquee/platform/testkit"
)

func sample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("internal/importfmt/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func upload(t *testing.T, c *testkit.Client, query, name string, body []byte) *testkit.Response {
	t.Helper()
	return c.Upload("/api/admin/screens/imports"+query, "file", testkit.File{Name: name, Body: body})
}

func reasonsOf(rep screens.ImportReport) map[int]string {
	out := map[int]string{}
	for _, r := range rep.Rows {
		out[r.Line] = r.Kind + ": " + r.Reason
	}
	return out
}

// A Xibo export, mapped in part: mapped and booked rows are counted as plays (the campaign week's
// figure moves, its source is import, and the file's hash enters the proof chain signed by
// Marquee); a row of a face the campaign does not book is stored flagged, not counted; rows of an
// unmapped reference are refused with the reason. The same file again answers its first report
// and counts nothing; another file with the same rows counts them as duplicates.
func TestImportXiboExport(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		// The samples' plays are on Monday 2026-11-23 (the campaign's second week); the server's
		// clock moves past them so they are neither in the future nor too old.
		w.s.Clock.Advance(3 * 24 * time.Hour)
		w.admin.SessionAs(w.s, w.adminID) // a fresh session at the new time
		week := w.weekStart.AddWeeks(1)
		before := w.weekOf(t, w.face, week)

		var m screens.Mappings
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{
			Displays: []screens.DisplayMapping{{Ref: "Main St & 5th - North", FaceID: w.face}, {Ref: "Route 9 South", FaceID: w.faces[3].ID}},
			Media: []screens.MediaMapping{{Ref: "fall-sale-1080x1920.png", CampaignID: w.campaign, CreativeID: w.creative},
				{Ref: "Main Street North", CampaignID: w.campaign, CreativeID: w.creative}, {Ref: "Weather", CampaignID: w.campaign, CreativeID: w.creative}},
		}).Expect(t, 200).JSON(t, &m)
		if len(m.Displays) != 2 || len(m.Media) != 3 {
			t.Fatalf("mappings = %+v", m)
		}

		var rep screens.ImportReport
		upload(t, w.admin, "?format=xibo", "xibo-4.x.csv", sample(t, "xibo-4.x.csv")).Expect(t, 200).JSON(t, &rep)
		if rep.Repeat || rep.Total != 4 || rep.Accepted != 2 || rep.Flagged != 1 || rep.Refused != 1 || rep.Duplicates != 0 || rep.Plays != 451 {
			t.Fatalf("report = %+v", rep)
		}
		reasons := reasonsOf(rep)
		if !strings.Contains(reasons[3], `refused: Media "Dental, \"smile\" v2.jpg" is not mapped`) || !strings.HasPrefix(reasons[5], "flagged: ") || len(reasons) != 2 {
			t.Fatalf("reasons = %v", reasons)
		}
		if len(rep.UnmappedMedia) != 1 || len(rep.UnmappedDisplays) != 0 || rep.FileName != "xibo-4.x.csv" || rep.Format != screens.ImportFormatXibo {
			t.Fatalf("report = %+v", rep)
		}
		after := w.weekOf(t, w.face, week)
		if after.ActImp == nil || (before.ActImp != nil && *after.ActImp <= *before.ActImp) || *after.ActImp <= 0 || after.DeliverySource != campaigns.DeliverySourceImport {
			t.Fatalf("week before %v after %v (%s)", before.ActImp, after.ActImp, after.DeliverySource)
		}
		// The flagged row's face (not booked) has no week; the campaign's proof chain names the file.
		codes, err := w.campaignsMod.Service().ProofCodesOf(t.Context(), w.campaign)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range codes {
			if c.FaceID != w.face || c.Week != week.String() {
				continue
			}
			var v campaigns.VerifyResult
			w.s.Client(t).Get("/api/verify/"+c.Code).Expect(t, 200).JSON(t, &v)
			found = v.Valid && v.Record.Reason == campaigns.ProofReasonImport+":"+rep.SHA256 && v.Device == nil
			if !found {
				t.Fatalf("verify = %+v", v)
			}
		}
		if !found || len(rep.SHA256) != 64 {
			t.Fatalf("no import record among %+v", codes)
		}

		// The same file again: its first report, nothing counted twice.
		var again screens.ImportReport
		upload(t, w.admin, "", "renamed.csv", sample(t, "xibo-4.x.csv")).Expect(t, 200).JSON(t, &again)
		if !again.Repeat || again.ID != rep.ID || again.Accepted != 2 || len(again.Rows) != 2 {
			t.Fatalf("again = %+v", again)
		}
		if w2 := w.weekOf(t, w.face, week); *w2.ActImp != *after.ActImp {
			t.Fatalf("re-import moved the figure: %d then %d", *after.ActImp, *w2.ActImp)
		}
		// Once a reference it left unmapped is mapped, the same file is read again: only the rows
		// refused for want of that mapping count; the others are duplicates.
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{Media: []screens.MediaMapping{{Ref: `Dental, "smile" v2.jpg`, CampaignID: w.campaign, CreativeID: w.creative}}}).Expect(t, 200)
		var mapped screens.ImportReport
		upload(t, w.admin, "?format=xibo", "xibo-4.x.csv", sample(t, "xibo-4.x.csv")).Expect(t, 200).JSON(t, &mapped)
		if mapped.Repeat || mapped.ID == rep.ID || mapped.Accepted != 1 || mapped.Duplicates != 3 || mapped.Refused != 0 || mapped.Plays != 1 {
			t.Fatalf("after mapping = %+v", mapped)
		}
		var third screens.ImportReport
		upload(t, w.admin, "?format=xibo", "xibo-4.x.csv", sample(t, "xibo-4.x.csv")).Expect(t, 200).JSON(t, &third)
		if !third.Repeat || third.ID != mapped.ID {
			t.Fatalf("third = %+v", third)
		}
		after = w.weekOf(t, w.face, week)

		// Another file (Xibo 2.3's header) with the same rows: duplicates by (display, media, from).
		var overlap screens.ImportReport
		upload(t, w.admin, "?format=xibo", "xibo-2.3.csv", sample(t, "xibo-2.3.csv")).Expect(t, 200).JSON(t, &overlap)
		if overlap.Repeat || overlap.Duplicates != 4 || overlap.Accepted != 0 || overlap.Refused != 0 || overlap.Plays != 0 {
			t.Fatalf("overlap = %+v", overlap)
		}
		if w2 := w.weekOf(t, w.face, week); *w2.ActImp != *after.ActImp {
			t.Fatalf("overlapping rows moved the figure: %d then %d", *after.ActImp, *w2.ActImp)
		}

		// The refusals sample: the parser's reasons, each on its line.
		var bad screens.ImportReport
		upload(t, w.admin, "?format=xibo", "xibo-refusals.csv", sample(t, "xibo-refusals.csv")).Expect(t, 200).JSON(t, &bad)
		reasons = reasonsOf(bad)
		if bad.Refused < 8 || !strings.Contains(reasons[3], "refused: ") || !strings.Contains(strings.ToLower(reasons[3]), "event") || bad.Accepted != 0 {
			t.Fatalf("refusals = %+v", bad)
		}

		var list screens.ImportList
		w.admin.Get("/api/admin/screens/imports").Expect(t, 200).JSON(t, &list)
		if len(list.Items) != 4 || list.Items[3].ID != rep.ID || len(list.Items[0].Rows) != 0 {
			t.Fatalf("list = %+v", list)
		}
	})
}

// The generic CSV, and an aggregate: its play count is counted.
func TestImportGenericCSV(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		w.s.Clock.Advance(3 * 24 * time.Hour)
		w.admin.SessionAs(w.s, w.adminID) // a fresh session at the new time
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{
			Displays: []screens.DisplayMapping{{Ref: "DSP-0012", FaceID: w.face}},
			Media:    []screens.MediaMapping{{Ref: "CR-fall-sale", CampaignID: w.campaign, CreativeID: w.creative}},
		}).Expect(t, 200)
		var rep screens.ImportReport
		upload(t, w.admin, "?format=csv", "generic.csv", sample(t, "generic.csv")).Expect(t, 200).JSON(t, &rep)
		reasons := reasonsOf(rep)
		if rep.Format != screens.ImportFormatCSV || rep.Accepted != 1 || rep.Refused != 2 || rep.Plays != 1 ||
			!strings.Contains(reasons[3], `Media "CR-dental-v2" is not mapped`) || !strings.Contains(reasons[4], `Display "DSP 0013, east" is not mapped`) {
			t.Fatalf("report = %+v", rep)
		}
		// A Xibo file sent as csv is refused whole, with the columns the generic format needs.
		res := upload(t, w.admin, "?format=csv", "x.csv", sample(t, "xibo-4.x.csv")).Expect(t, 400)
		if !strings.Contains(string(res.Body), "display_id") {
			t.Fatalf("wrong-format answer: %s", res.Body)
		}
		// The reasons kept are bounded: the first 1,000 by line, the counts exact.
		var big strings.Builder
		big.WriteString("display_id,media_id,started_at,duration_s,play_count\n")
		for i := range 1200 {
			fmt.Fprintf(&big, "UNMAPPED-%d,CR-fall-sale,2026-11-23T11:00:%02dZ,8,1\n", i, i%60)
		}
		var many screens.ImportReport
		upload(t, w.admin, "?format=csv", "many.csv", []byte(big.String())).Expect(t, 200).JSON(t, &many)
		if many.Refused != 1200 || len(many.Rows) != screens.MaxImportReasons || !many.Truncated || many.Rows[999].Line != 1001 {
			t.Fatalf("many: refused %d, %d reasons, truncated %v", many.Refused, len(many.Rows), many.Truncated)
		}
		upload(t, w.admin, "?format=pdf", "x.csv", sample(t, "generic.csv")).Expect(t, 400)
		upload(t, w.admin, "?tz=Mars/Olympus", "x.csv", sample(t, "generic.csv")).Expect(t, 400)
	})
}

// Imports and mappings are admin-only; a mapping names a face, campaign and creative that exist,
// and a reference of one line.
func TestImportAccessAndMappingRules(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		upload(t, w.adv, "", "generic.csv", sample(t, "generic.csv")).Expect(t, 403)
		w.adv.Get("/api/admin/screens/imports").Expect(t, 403)
		w.adv.Get("/api/admin/screens/mappings").Expect(t, 403)
		w.adv.Put("/api/admin/screens/mappings", screens.Mappings{Displays: []screens.DisplayMapping{{Ref: "A", FaceID: w.face}}}).Expect(t, 403)

		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{Displays: []screens.DisplayMapping{{Ref: "A", FaceID: "no-such-face"}}}).Expect(t, 400)
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{Displays: []screens.DisplayMapping{{Ref: "A\nB", FaceID: w.face}}}).Expect(t, 400)
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{Media: []screens.MediaMapping{{Ref: "M", CampaignID: "nope", CreativeID: w.creative}}}).Expect(t, 400)
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{Media: []screens.MediaMapping{{Ref: "M", CampaignID: w.campaign, CreativeID: "nope"}}}).Expect(t, 400)
		var m screens.Mappings
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{Displays: []screens.DisplayMapping{{Ref: "A", FaceID: w.face}}}).Expect(t, 200).JSON(t, &m)
		if len(m.Displays) != 1 || len(m.Media) != 0 {
			t.Fatalf("mappings = %+v", m)
		}
		// An empty face unmaps.
		w.admin.Put("/api/admin/screens/mappings", screens.Mappings{Displays: []screens.DisplayMapping{{Ref: "A"}}}).Expect(t, 200).JSON(t, &m)
		if len(m.Displays) != 0 {
			t.Fatalf("mappings after unmapping = %+v", m)
		}
		// No file part.
		w.admin.Upload("/api/admin/screens/imports", "other", testkit.File{Name: "x.csv", Body: []byte("a")}).Expect(t, 400)
	})
}

// A body whose declared length is over the limit is answered 413 before it is read: the server
// answers though the client has sent only a few bytes of it.
func TestImportOversizedRefusedBeforeRead(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		u, _ := url.Parse(w.s.URL)
		var cookies []string
		for _, c := range w.admin.HTTP.Jar.Cookies(u) {
			cookies = append(cookies, c.Name+"="+c.Value)
		}
		var mb bytes.Buffer
		mw := multipart.NewWriter(&mb)
		part, _ := mw.CreateFormFile("file", "big.csv")
		_, _ = part.Write([]byte("display_id,media_id,started_at,duration_s,play_count\n"))
		conn, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST /api/admin/screens/imports HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nX-Requested-With: XMLHttpRequest\r\nOrigin: %s\r\nCookie: %s\r\n\r\n",
			u.Host, mw.FormDataContentType(), screens.MaxImportBytes+(2<<20), w.s.URL, strings.Join(cookies, "; "))
		_, _ = conn.Write(mb.Bytes())
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d", res.StatusCode)
		}
	})
}
