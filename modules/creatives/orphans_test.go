package creatives_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"marquee/modules/creatives"
	"marquee/platform/apperr"
	"marquee/platform/storage"
	"marquee/platform/testkit"
)

// The objects an upload cut short leaves (stored, but no row inserted: a process killed between
// the two) are deleted by the daily sweep once they are a day old, on both drivers;
// every object a row names, and everything outside the upload folders, stays.
func TestOrphanObjectsAreSweptAfterADay(t *testing.T) {
	defer creatives.SetOrphanBatch(2)() // full batches, and a last one that is not
	for _, driver := range []string{storage.DriverFS, storage.DriverS3} {
		t.Run(driver, func(t *testing.T) {
			testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
				var opts []testkit.Option
				if driver == storage.DriverS3 {
					_, opts = onS3(t, "marquee-orphans")
				}
				w := start(t, dialect, opts...)
				store := w.s.Kernel.Storage
				keys := func() []string {
					t.Helper()
					var out []string
					if err := store.List(t.Context(), "", func(o storage.Object) error { out = append(out, o.Key); return nil }); err != nil {
						t.Fatal(err)
					}
					slices.Sort(out)
					return out
				}

				// Files with rows: a TIFF creative (original, thumbnail, web copy) and a temp image.
				tif := uploadOne(t, w, w.user, "/upload_creative", namedFile{"board.tif", tiffOf(t, 600, 200)})
				var tmp []creatives.UploadedFile
				upload(t, w, w.amb, "/upload_temp", "files", namedFile{"a.png", pngOf(t, 30, 30)}).Expect(t, 200).JSON(t, &tmp)
				named := keys()
				if len(named) != 5 {
					t.Fatalf("objects after two uploads = %q, want 5", named)
				}
				// What two cut uploads and a generated report leave.
				orphans := []string{
					"creative/" + w.userCompany + "/01a21200-0000-7000-8000-00000000000a.tif",
					"creative/" + w.userCompany + "/01a21200-0000-7000-8000-00000000000a.thumb.jpg",
					"proof/" + w.ambCompany + "/01a21200-0000-7000-8000-00000000000b.jpg",
				}
				kept := "reports/" + w.userCompany + "/r1/report.pdf"
				for _, key := range append(slices.Clone(orphans), kept) {
					if err := store.Put(t.Context(), key, strings.NewReader(key), int64(len(key)), "application/octet-stream"); err != nil {
						t.Fatal(err)
					}
				}
				sweep := func() int {
					t.Helper()
					n, err := creativesModule(w).SweepOrphanObjects(t.Context())
					if err != nil {
						t.Fatal(err)
					}
					return n
				}

				// The objects' times are the store's (real) clock; the sweep's day is the server's.
				w.s.Clock.Set(time.Now().Add(creatives.OrphanGrace - time.Hour))
				if n := sweep(); n != 0 {
					t.Fatalf("a sweep within the day deleted %d objects", n)
				}
				w.s.Clock.Set(time.Now().Add(creatives.OrphanGrace + time.Hour))
				if n := sweep(); n != len(orphans) {
					t.Fatalf("a sweep after the day deleted %d objects, want %d", n, len(orphans))
				}
				if got, want := keys(), append(slices.Clone(named), kept); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
					t.Fatalf("objects after the sweep = %q, want %q", got, want)
				}
				if n := sweep(); n != 0 {
					t.Fatalf("a second sweep deleted %d objects", n)
				}

				// Every file a row names still serves, in all its forms.
				w.user.SessionAs(w.s, w.userID) // the sessions idled out over the day
				w.amb.SessionAs(w.s, w.ambID)
				for _, path := range []string{imagePath(tif.Path), imagePath(tif.Path) + "&thumb=1", imagePath(tif.Path) + "&original=1"} {
					w.user.Get(path).Expect(t, 200)
				}
				w.amb.Get(imagePath(tmp[0].Path)).Expect(t, 200)

				// The job ticks hourly and sweeps once a day, by the time of the last sweep kept in
				// the store, so a restart neither repeats nor postpones it.
				var job func(context.Context) error
				for _, j := range creativesModule(w).Jobs() {
					if j.Name == creatives.JobSweepOrphans {
						job = j.Run
					}
				}
				late := "creative/" + w.userCompany + "/01a21200-0000-7000-8000-00000000000c.jpg"
				exists := func() bool {
					t.Helper()
					_, err := store.Stat(t.Context(), late)
					if err != nil && apperr.CodeOf(err) != apperr.ENOTFOUND {
						t.Fatal(err)
					}
					return err == nil
				}
				for i, want := range []bool{false, true, true, false} {
					if i == 1 {
						if err := store.Put(t.Context(), late, strings.NewReader("late"), 4, ""); err != nil {
							t.Fatal(err)
						}
					}
					if i == 3 {
						w.s.Clock.Advance(creatives.SweepEvery)
					}
					if err := job(t.Context()); err != nil {
						t.Fatal(err)
					}
					if exists() != want {
						t.Fatalf("run %d of the job: the orphan exists = %v, want %v", i+1, !want, want)
					}
				}
			})
		})
	}
}

// A process killed in the middle of an upload leaves its staged files (DATA_DIR/tmp/uploads) and,
// on the fs driver, the temporary file of a put: the next start removes those over an hour old,
// and keeps younger ones, which may be another process's upload in progress.
func TestCrashDebrisIsRemovedAtStart(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		dir := t.TempDir()
		old := time.Now().Add(-2 * time.Hour)
		files := map[string]bool{ // path under DATA_DIR: kept
			"tmp/uploads/upload-123":                 false,
			"tmp/uploads/web-456":                    false,
			"tmp/uploads/upload-789.young":           true,
			"tmp/uploads/notes.txt":                  true,
			"files/objects/creative/c1/.put-111":     false,
			"files/types/creative/c1/.put-222":       false,
			"files/objects/creative/c1/.put-333.new": true,
			"files/objects/creative/c1/a.jpg":        true,
		}
		for name := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(name), 0o600); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(name, "young") && !strings.HasSuffix(name, ".new") {
				if err := os.Chtimes(p, old, old); err != nil {
					t.Fatal(err)
				}
			}
		}
		start(t, dialect, testkit.WithEnv("DATA_DIR", dir))
		for name, kept := range files {
			_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(name)))
			if exists := err == nil; exists != kept {
				t.Errorf("%s: exists = %v after the start, want %v", name, exists, kept)
			}
		}
	})
}
