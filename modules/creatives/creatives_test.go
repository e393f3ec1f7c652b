package creatives_test

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"marquee/modules/creatives"
	"marquee/platform/audit"
	"marquee/platform/pagination"
	"marquee/platform/testkit"
)

func createCreative(t *testing.T, w *world, c *testkit.Client, req creatives.CreateCreativeRequest) creatives.Creative {
	t.Helper()
	var out creatives.Creative
	c.Post("/api/creatives/", req).Expect(t, 201).JSON(t, &out)
	return out
}

func TestCreativesLifecycleAndTenancy(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		// A creative saved before its upload (A §5).
		expectMessage(t, w.user.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{Name: "x"}}),
			400, creatives.MsgUploadCreative)
		expectMessage(t, w.user.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{Name: "x", URL: "creative/none/none.jpg"}}),
			400, creatives.MsgUploadCreative)
		// Another company's upload is not yours to save.
		theirs := uploadOne(t, w, w.amb, "/upload_creative", namedFile{"theirs.jpg", jpegOf(t, 64, 32)})
		expectMessage(t, w.user.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: theirs.Path}}),
			400, creatives.MsgUploadCreative)
		// A report PDF is not an image.
		report := uploadOne(t, w, w.admin, "/upload_report", namedFile{"r.pdf", tinyPDF})
		expectMessage(t, w.admin.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: report.Path}}),
			400, creatives.MsgUploadCreative)
		if got := rowCount(t, w, "creatives_creatives"); got != 0 {
			t.Fatalf("creatives after refusals = %d", got)
		}

		up1 := uploadOne(t, w, w.user, "/upload_creative", namedFile{"first.jpg", jpegOf(t, 1400, 400)})
		first := createCreative(t, w, w.user, creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{Name: "First", Alt: "our sale", URL: up1.Path},
			Company: w.ambCompany}) // a user's company field is ignored
		if first.Company != w.userCompany || !first.IsDefault || first.Width != 1400 || first.Height != 400 || first.URL != up1.Path ||
			!strings.HasPrefix(first.Reference, "CR-") || first.ConvertedThumb == "" || first.AwsURL == "" {
			t.Fatalf("first creative = %+v", first)
		}
		w.user.Get(first.AwsURL).Expect(t, 200)
		w.user.Get(first.ConvertedThumb).Expect(t, 200)
		up2 := uploadOne(t, w, w.user, "/upload_creative_image", namedFile{"ad.png", pngOf(t, 1400, 400)})
		second := createCreative(t, w, w.user, creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: up2.Path}})
		if second.IsDefault || second.Name != "ad.png" {
			t.Fatalf("second creative = %+v", second)
		}
		up3 := uploadOne(t, w, w.user, "/upload_creative", namedFile{"small.jpg", jpegOf(t, 640, 480)})
		createCreative(t, w, w.user, creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{Name: "Small", URL: up3.Path}})
		// The same upload cannot make a second creative of another company.
		expectMessage(t, w.amb.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: up3.Path}}), 400, creatives.MsgUploadCreative)

		var page pagination.Page[creatives.Creative]
		w.user.Get("/api/creatives/?page_size=10").Expect(t, 200).JSON(t, &page)
		if page.Total != 3 || len(page.Items) != 3 || page.PageSize != 10 {
			t.Fatalf("list = %+v", page)
		}
		w.user.Get("/api/creatives/?page_size=2&page=2").Expect(t, 400) // 10, 20, 50 or All only
		w.user.Get("/api/creatives/?page_size=0").Expect(t, 200).JSON(t, &page)
		if len(page.Items) != 3 {
			t.Fatalf("All = %d", len(page.Items))
		}
		w.amb.Get("/api/creatives/").Expect(t, 200).JSON(t, &page)
		if page.Total != 0 {
			t.Fatalf("another company sees %d creatives", page.Total)
		}
		var sized []creatives.Creative
		w.user.Get("/api/creatives/size?width=1400&height=400").Expect(t, 200).JSON(t, &sized)
		if len(sized) != 2 {
			t.Fatalf("1400x400 creatives = %d", len(sized))
		}
		w.user.Get("/api/creatives/size?width=0&height=400").Expect(t, 400)

		var def *creatives.Creative
		w.user.Get("/api/creatives/default").Expect(t, 200).JSON(t, &def)
		if def == nil || def.ID != first.ID {
			t.Fatalf("default = %+v", def)
		}
		w.amb.Get("/api/creatives/default").Expect(t, 200).JSON(t, &def)
		if def != nil {
			t.Fatalf("a company without creatives has default %+v", def)
		}
		w.user.Put("/api/creatives/"+second.ID+"/default", nil).Expect(t, 200)
		w.user.Get("/api/creatives/default").Expect(t, 200).JSON(t, &def)
		if def.ID != second.ID {
			t.Fatalf("default after change = %s", def.ID)
		}
		var n int64
		w.s.Kernel.DB.Table("creatives_creatives").Where("company_id = ? AND is_default = ?", w.userCompany, true).Count(&n)
		if n != 1 {
			t.Fatalf("defaults = %d", n)
		}

		// Tenancy: another company's creative answers 404 everywhere.
		w.amb.Put("/api/creatives/"+first.ID+"/default", nil).Expect(t, 404)
		w.amb.Delete("/api/creatives/"+first.ID).Expect(t, 404)
		w.amb.Get(first.AwsURL).Expect(t, 404)

		objects := objectCount(t, w)
		if got := w.user.Delete("/api/creatives/"+first.ID).Expect(t, 200).Map(t); got["success"] != true {
			t.Fatalf("delete = %v", got)
		}
		if got := objectCount(t, w); got != objects-2 {
			t.Fatalf("objects after delete = %d, want %d", got, objects-2)
		}
		w.user.Get(first.AwsURL).Expect(t, 404)
		w.user.Delete("/api/creatives/"+first.ID).Expect(t, 404)

		// Service calls for campaigns.
		svc := creativesService(w)
		found, err := svc.FindCreativesByIDs(t.Context(), []string{second.ID, first.ID, "missing"})
		if err != nil || len(found) != 1 || found[0].ID != second.ID {
			t.Fatalf("FindCreativesByIDs = %v %v", found, err)
		}
		if d, err := svc.FindDefaultCreative(t.Context(), w.userCompany); err != nil || d.ID != second.ID {
			t.Fatalf("FindDefaultCreative = %v %v", d, err)
		}
		if _, err := svc.FindDefaultCreative(t.Context(), w.ambCompany); err == nil {
			t.Fatal("FindDefaultCreative of a company without one")
		}
		if f, err := svc.FindFile(t.Context(), up2.Path); err != nil || f.CompanyID != w.userCompany || f.Width != 1400 {
			t.Fatalf("FindFile = %+v %v", f, err)
		}
	})
}

func creativesService(w *world) creatives.Service {
	for _, m := range w.s.Modules {
		if cr, ok := m.(*creatives.Module); ok {
			return cr.Service()
		}
	}
	panic("creatives not built")
}

// B §2: an admin uploads a creative for a company.
func TestAdminUploadsForAnotherCompany(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		up := uploadOne(t, w, w.admin, "/upload_creative?company="+w.ambCompany, namedFile{"for them.jpg", jpegOf(t, 300, 100)})
		if !strings.Contains(up.Path, "/"+w.ambCompany+"/") {
			t.Fatalf("admin upload stored under %s", up.Path)
		}
		// The company can see it at once.
		w.amb.Get(imagePath(up.Path)).Expect(t, 200)
		cr := createCreative(t, w, w.admin, creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{Name: "Theirs", URL: up.Path}, Company: w.ambCompany})
		if cr.Company != w.ambCompany || !cr.IsDefault {
			t.Fatalf("admin creative = %+v", cr)
		}
		var page pagination.Page[creatives.Creative]
		w.amb.Get("/api/creatives/").Expect(t, 200).JSON(t, &page)
		if page.Total != 1 || page.Items[0].ID != cr.ID {
			t.Fatalf("the company's list = %+v", page)
		}
		w.admin.Get("/api/creatives/?company="+w.ambCompany).Expect(t, 200).JSON(t, &page)
		if page.Total != 1 {
			t.Fatalf("admin's list of the company = %d", page.Total)
		}
		// An admin's own upload may be saved for a company too.
		own := uploadOne(t, w, w.admin, "/upload_creative", namedFile{"mine.jpg", jpegOf(t, 300, 100)})
		cr2 := createCreative(t, w, w.admin, creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: own.Path}, Company: w.userCompany})
		if cr2.Company != w.userCompany {
			t.Fatalf("company = %s", cr2.Company)
		}
		w.user.Get(cr2.AwsURL).Expect(t, 200)
		w.admin.Get("/api/creatives/?company=unknown").Expect(t, 404)
		upload(t, w, w.admin, "/upload_creative?company=unknown", "file", namedFile{"x.jpg", jpegOf(t, 8, 8)}).Expect(t, 404)
		// A user's company parameter is ignored: the file stays theirs.
		mine := uploadOne(t, w, w.user, "/upload_creative?company="+w.ambCompany, namedFile{"x.jpg", jpegOf(t, 8, 8)})
		if !strings.Contains(mine.Path, "/"+w.userCompany+"/") {
			t.Fatalf("user upload stored under %s", mine.Path)
		}
		// Each creative an admin made for a company is in the audit log (DESIGN.md §1.12).
		var entries pagination.Page[audit.Entry]
		w.admin.Get("/api/admin/audit/?action="+creatives.AuditCreativeForCompany+"&sort=created_at").Expect(t, 200).JSON(t, &entries)
		if entries.Total != 2 || entries.Items[0].ObjectID != w.ambCompany || !strings.Contains(string(entries.Items[0].After), cr.ID) ||
			entries.Items[1].ObjectID != w.userCompany {
			t.Fatalf("audit = %+v", entries.Items)
		}
	})
}

func TestDefaultCreativeIsExclusiveUnderConcurrency(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		var keys []string
		for i := range 4 {
			keys = append(keys, uploadOne(t, w, w.user, "/upload_creative", namedFile{"c.jpg", jpegOf(t, 40+i, 40)}).Path)
		}
		// The company's first creatives, all at once: exactly one becomes the default.
		concurrently(t, keys, 201, func(key string) *testkit.Response {
			return w.user.Post("/api/creatives/", creatives.CreateCreativeRequest{Creative: creatives.CreativeFile{URL: key}})
		})
		if n := countWhere(t, w, "creatives_creatives", "is_default = ?", true); n != 1 {
			t.Fatalf("defaults after concurrent first creatives = %d", n)
		}
		var ids []string
		w.s.Kernel.DB.Table("creatives_creatives").Pluck("id", &ids)
		concurrently(t, ids, 200, func(id string) *testkit.Response { return w.user.Put("/api/creatives/"+id+"/default", nil) })
		if n := countWhere(t, w, "creatives_creatives", "is_default = ?", true); n != 1 {
			t.Fatalf("defaults after concurrent changes = %d", n)
		}
	})
}

// Proofs and reports are stored by other modules through the service; proofs are served by
// /proof/image to their company and admins only.
func TestStoreFileAndProofImages(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		w := start(t, dialect)
		svc := creativesService(w)
		proof, err := svc.StoreFile(t.Context(), creatives.StoreFileRequest{CompanyID: w.userCompany, Kind: creatives.KindProof, OriginalName: "proof.jpg"},
			bytes.NewReader(jpegOf(t, 200, 100)))
		if err != nil || proof.ThumbKey == "" || proof.Width != 200 || proof.Kind != creatives.KindProof {
			t.Fatalf("StoreFile proof = %+v %v", proof, err)
		}
		proofURL := "/proof/image?image=" + url.QueryEscape(proof.Key)
		res := w.user.Get(proofURL).Expect(t, 200)
		if res.Header.Get("Content-Type") != "image/jpeg" {
			t.Fatalf("proof type = %s", res.Header.Get("Content-Type"))
		}
		w.user.Get(proofURL+"&thumb=1").Expect(t, 200)
		w.admin.Get(proofURL).Expect(t, 200)
		w.amb.Get(proofURL).Expect(t, 404)
		w.user.Get(imagePath(proof.Key)).Expect(t, 404) // a proof is not served as a creative

		report, err := svc.StoreFile(t.Context(), creatives.StoreFileRequest{CompanyID: w.userCompany, Kind: creatives.KindReport, OriginalName: "r.pdf"},
			bytes.NewReader(tinyPDF))
		if err != nil || report.ContentType != "application/pdf" {
			t.Fatalf("StoreFile report = %+v %v", report, err)
		}
		res = w.user.Get(imagePath(report.Key)).Expect(t, 200)
		if res.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "inline") {
			t.Fatalf("report headers = %v", res.Header)
		}
		objects := objectCount(t, w)
		for _, bad := range []struct {
			req  creatives.StoreFileRequest
			body []byte
		}{
			{creatives.StoreFileRequest{CompanyID: w.userCompany, Kind: creatives.KindReport}, jpegOf(t, 8, 8)},
			{creatives.StoreFileRequest{CompanyID: w.userCompany, Kind: creatives.KindProof}, tinyPDF},
			{creatives.StoreFileRequest{CompanyID: w.userCompany, Kind: creatives.KindCreative}, jpegOf(t, 8, 8)},
			{creatives.StoreFileRequest{Kind: creatives.KindProof}, jpegOf(t, 8, 8)},
		} {
			if _, err := svc.StoreFile(t.Context(), bad.req, bytes.NewReader(bad.body)); err == nil {
				t.Fatalf("StoreFile(%+v) succeeded", bad.req)
			}
		}
		if objectCount(t, w) != objects {
			t.Fatal("a refused StoreFile left an object")
		}
		if _, err := svc.FindFile(t.Context(), "nothing/here.jpg"); err == nil {
			t.Fatal("FindFile of a missing key")
		}
	})
}
