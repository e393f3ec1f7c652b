package creatives_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/platform/pagination"
	"marquee/platform/testkit"
)

func createContent(t *testing.T, c *testkit.Client, req creatives.CreateContentRequest) creatives.Content {
	t.Helper()
	var out creatives.Content
	c.Post("/api/contents/", req).Expect(t, 201).JSON(t, &out)
	return out
}

func listContents(t *testing.T, c *testkit.Client, query string) pagination.Page[creatives.Content] {
	t.Helper()
	var page pagination.Page[creatives.Content]
	c.Get("/api/contents/"+query).Expect(t, 200).JSON(t, &page)
	return page
}

func names(items []creatives.Content) []string {
	var out []string
	for _, c := range items {
		out = append(out, c.Name)
	}
	slices.Sort(out)
	return out
}

func TestContentLibrary(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		// Content saved before its upload (A §5), and a YouTube link without a v parameter.
		expectMessage(t, w.admin.Post("/api/contents/", creatives.CreateContentRequest{Type: "document", Content: creatives.ContentFile{Name: "Guide"},
			Scopes: []string{"standard"}}), 400, creatives.MsgUploadContent)
		expectMessage(t, w.admin.Post("/api/contents/", creatives.CreateContentRequest{Type: "youtube", Youtube: "https://www.youtube.com/watch?list=abc",
			Scopes: []string{"standard"}}), 400, creatives.MsgYoutubeLink)
		// Content management is admin-only (A §6).
		w.user.Post("/api/contents/", creatives.CreateContentRequest{Type: "youtube", Youtube: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", Scopes: []string{"standard"}}).Expect(t, 403)
		if got := rowCount(t, w, "creatives_contents"); got != 0 {
			t.Fatalf("contents after refusals = %d", got)
		}

		pdf := uploadOne(t, w, w.admin, "/upload_file?type=document", namedFile{"Playbook.pdf", tinyPDF})
		// An image type over a PDF is refused.
		expectMessage(t, w.admin.Post("/api/contents/", creatives.CreateContentRequest{Type: "image", Content: creatives.ContentFile{URL: pdf.Path}, Scopes: []string{"standard"}}),
			400, creatives.MsgContentTypeKind)
		doc := createContent(t, w.admin, creatives.CreateContentRequest{Type: "document", Content: creatives.ContentFile{Name: "Playbook", URL: pdf.Path},
			Scopes: []string{"standard", "certified"}, Tags: []string{" launch ", "Launch", "", "q3 plan"}})
		if doc.Type != "document" || doc.Status != "active" || !slices.Equal(doc.Tags, []string{"LAUNCH", "Q3 PLAN"}) ||
			!slices.Equal(doc.Scope, []string{"standard", "certified"}) || doc.URL != pdf.Path || doc.CustomName != pdf.Filename || doc.AwsURL == "" || doc.Thumb != "" {
			t.Fatalf("document = %+v", doc)
		}
		png := uploadOne(t, w, w.admin, "/upload_file?type=image", namedFile{"Logo.png", pngOf(t, 200, 100)})
		img := createContent(t, w.admin, creatives.CreateContentRequest{Type: "image", Content: creatives.ContentFile{URL: png.Path}, Scopes: []string{"ambassador"}})
		if img.Name != "Logo.png" || img.Thumb == "" {
			t.Fatalf("image = %+v", img)
		}
		yt := createContent(t, w.admin, creatives.CreateContentRequest{Type: "youtube", Content: creatives.ContentFile{Name: "How to"},
			Youtube: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s", Scopes: []string{"standard", "ambassador", "certified"}})
		if yt.Youtube != "dQw4w9WgXcQ" || yt.URL != "" || yt.AwsURL != "" {
			t.Fatalf("youtube = %+v", yt)
		}

		// Who sees what (A §6): admins all, with the page size of 50; users the active items of their scope.
		all := listContents(t, w.admin, "")
		if all.Total != 3 || all.PageSize != 50 {
			t.Fatalf("admin list = %+v", all)
		}
		if got := names(listContents(t, w.user, "").Items); !slices.Equal(got, []string{"How to", "Playbook"}) {
			t.Fatalf("standard user sees %v", got)
		}
		if got := names(listContents(t, w.amb, "").Items); !slices.Equal(got, []string{"How to", "Logo.png"}) {
			t.Fatalf("ambassador sees %v", got)
		}
		if got := names(listContents(t, w.user, "?q=launch").Items); !slices.Equal(got, []string{"Playbook"}) {
			t.Fatalf("search = %v", got)
		}
		w.user.Get("/api/contents/?page_size=20").Expect(t, 400)
		// The files follow the same rule.
		w.user.Get(doc.AwsURL).Expect(t, 200)
		w.amb.Get(doc.AwsURL).Expect(t, 404)
		w.amb.Get(img.Thumb).Expect(t, 200)

		// Edit: status, scopes, tags, description.
		var edited creatives.Content
		w.admin.Put("/api/contents/"+doc.ID, creatives.UpdateContentRequest{ID: doc.ID, Name: "Playbook 2", Type: "doc",
			Scopes: []string{"standard"}, Tags: []string{"x", "X"}, Status: "inactive", Description: "Old"}).Expect(t, 200).JSON(t, &edited)
		if edited.Name != "Playbook 2" || edited.Status != "inactive" || !slices.Equal(edited.Tags, []string{"X"}) || edited.Description != "Old" || edited.Type != "document" {
			t.Fatalf("edited = %+v", edited)
		}
		if got := names(listContents(t, w.user, "").Items); !slices.Equal(got, []string{"How to"}) {
			t.Fatalf("standard user after deactivation sees %v", got)
		}
		w.user.Get(doc.AwsURL).Expect(t, 404)
		w.admin.Put("/api/contents/"+doc.ID, creatives.UpdateContentRequest{Name: "P", Type: "video", Scopes: []string{"standard"}, Status: "active"}).Expect(t, 400)
		w.admin.Put("/api/contents/"+doc.ID, creatives.UpdateContentRequest{Name: "P", Type: "document", Scopes: []string{"gold"}, Status: "active"}).Expect(t, 400)
		w.admin.Put("/api/contents/"+doc.ID, creatives.UpdateContentRequest{Name: "P", Type: "document", Scopes: []string{"standard"}, Status: "archived"}).Expect(t, 400)
		w.admin.Put("/api/contents/missing", creatives.UpdateContentRequest{Name: "P", Type: "document", Scopes: []string{"standard"}, Status: "active"}).Expect(t, 404)
		w.user.Put("/api/contents/"+doc.ID, creatives.UpdateContentRequest{Name: "P", Type: "document", Scopes: []string{"standard"}, Status: "active"}).Expect(t, 403)

		// The older stored value doc reads as document (A §4).
		if err := w.s.Kernel.DB.Exec("UPDATE creatives_contents SET type = 'doc' WHERE id = ?", doc.ID).Error; err != nil {
			t.Fatal(err)
		}
		for _, it := range listContents(t, w.admin, "").Items {
			if it.ID == doc.ID && it.Type != "document" {
				t.Fatalf("stored doc reads as %q", it.Type)
			}
		}

		// Relevant is exclusive (A §5).
		w.admin.Put("/api/contents/"+img.ID+"/relevant", nil).Expect(t, 200)
		w.admin.Put("/api/contents/"+yt.ID+"/relevant", nil).Expect(t, 200)
		list := listContents(t, w.admin, "").Items
		if list[0].ID != yt.ID || !list[0].Relevant || list[1].Relevant || list[2].Relevant {
			t.Fatalf("relevant flags = %+v", list)
		}
		w.admin.Put("/api/contents/missing/relevant", nil).Expect(t, 404)
		w.user.Put("/api/contents/"+img.ID+"/relevant", nil).Expect(t, 403)

		// Delete removes the item and its file.
		objects := objectCount(t, w)
		if got := w.admin.Delete("/api/contents/"+img.ID).Expect(t, 200).Map(t); got["success"] != true {
			t.Fatalf("delete = %v", got)
		}
		if got := objectCount(t, w); got != objects-2 {
			t.Fatalf("objects after delete = %d, want %d", got, objects-2)
		}
		w.admin.Delete("/api/contents/"+img.ID).Expect(t, 404)
		w.user.Delete("/api/contents/"+yt.ID).Expect(t, 403)
	})
}

func TestRelevantIsExclusiveUnderConcurrency(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		var ids []string
		for i := range 5 {
			ids = append(ids, createContent(t, w.admin, creatives.CreateContentRequest{Type: "youtube",
				Youtube: fmt.Sprintf("youtube.com/watch?v=abcdefghij%d", i), Scopes: []string{"standard"}}).ID)
		}
		concurrently(t, ids, 200, func(id string) *testkit.Response { return w.admin.Put("/api/contents/"+id+"/relevant", nil) })
		if n := countWhere(t, w, "creatives_contents", "relevant = ?", true); n != 1 {
			t.Fatalf("relevant items = %d", n)
		}
	})
}

func TestCreativeRequestGoesThroughTheOutbox(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect, testkit.WithEnv("OPERATIONS_EMAIL", "ops@marquee.test"))
		expectMessage(t, w.user.Post("/users/creative", creatives.CreativeRequest{Email: "ada.work@example.com", FullName: "Ada Lovelace", Message: "A spring sale board"}),
			200, creatives.MsgCreativeRequested)
		mails := w.s.DeliverMail(t)
		if len(mails) != 2 {
			t.Fatalf("mails = %d", len(mails))
		}
		all := strings.Join(mails, "\n----\n")
		for _, want := range []string{"To: <ops@marquee.test>", "Reply-To: <ada.work@example.com>", "Ada Lovelace", "Standard Co", "A spring sale board", "To: <" + w.userEmail + ">"} {
			if !strings.Contains(all, want) {
				t.Fatalf("mails lack %q:\n%s", want, all)
			}
		}
		if strings.Contains(all, "\nTo: <ada.work@example.com>") {
			t.Fatal("a copy went to the typed address")
		}
		w.user.Post("/users/creative", creatives.CreativeRequest{Email: "not an email", FullName: "Ada"}).Expect(t, 400)
		w.user.Post("/users/creative", creatives.CreativeRequest{Email: "a@example.com", FullName: "  "}).Expect(t, 400)
		for range creatives.CreativeRequestsPerHour - 1 {
			w.user.Post("/users/creative", creatives.CreativeRequest{Email: "a@example.com", FullName: "Ada"}).Expect(t, 200)
		}
		w.user.Post("/users/creative", creatives.CreativeRequest{Email: "a@example.com", FullName: "Ada"}).Expect(t, 429)
		// Per user: another user is not limited, and the limit ends after the hour.
		w.amb.Post("/users/creative", creatives.CreativeRequest{Email: "b@example.com", FullName: "Bo"}).Expect(t, 200)
		w.s.Clock.Advance(time.Hour + time.Second)
		w.user.Post("/users/creative", creatives.CreativeRequest{Email: "a@example.com", FullName: "Ada"}).Expect(t, 200)
		w.s.Client(t).Post("/users/creative", creatives.CreativeRequest{Email: "a@example.com", FullName: "Ada"}).Expect(t, 401)
	})
}

func TestUnusedTempFilesAreRemovedAfterADay(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		var ups []creatives.UploadedFile
		upload(t, w, w.user, "/upload_temp", "files", namedFile{"a.jpg", jpegOf(t, 30, 30)}, namedFile{"b.png", pngOf(t, 30, 30)}).Expect(t, 200).JSON(t, &ups)
		createCreative(t, w, w.user, creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: ups[0].Path}})
		mod := creativesModule(w)

		w.s.Clock.Advance(23 * time.Hour)
		if n, err := mod.CleanTempFiles(t.Context()); err != nil || n != 0 {
			t.Fatalf("clean before a day = %d %v", n, err)
		}
		w.s.Clock.Advance(2 * time.Hour)
		if n, err := mod.CleanTempFiles(t.Context()); err != nil || n != 1 {
			t.Fatalf("clean after a day = %d %v", n, err)
		}
		expectNothingStored(t, w, 2, 1) // the attached one and its thumb remain
		w.user.SessionAs(w.s, w.userID) // the old session idled out over the day
		w.user.Get(imagePath(ups[1].Path)).Expect(t, 404)
		w.user.Get(imagePath(ups[0].Path)).Expect(t, 200)
		// A removed temp file can no longer be saved.
		expectMessage(t, w.user.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: ups[1].Path}}), 400, creatives.MsgUploadCreative)
	})
}

func creativesModule(w *world) *creatives.Module {
	for _, m := range w.s.Modules {
		if cr, ok := m.(*creatives.Module); ok {
			return cr
		}
	}
	panic("creatives not built")
}
