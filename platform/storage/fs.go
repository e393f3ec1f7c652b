package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"marquee/platform/apperr"
)

// FS stores objects as files under a root directory:
//
//	<root>/objects/<key>   the bytes, exactly as put, so an operator can read or copy them
//	<root>/types/<key>     the content type, as one line of text
//
// The content type lives in a sidecar in a tree of its own, rather than beside the object or in an
// extension map, because keys are ours to choose (random, often without an extension) and a
// sidecar beside the object could collide with another key. Both files are written to a temporary
// file and renamed into place, so a reader sees a whole object or none. The type is renamed first:
// a crash between the two renames leaves a type without an object (invisible), never an object
// without its type. Keys are random and written once (DESIGN.md §3), so a replaced object never
// briefly pairs with another object's type in practice.
type FS struct {
	objects string
	types   string
}

var _ Storage = (*FS)(nil)

// NewFS returns a file system storage rooted at dir, creating it when missing.
func NewFS(dir string) (*FS, error) {
	if dir == "" {
		return nil, errors.New("storage: fs driver needs a directory")
	}
	s := &FS{objects: filepath.Join(dir, "objects"), types: filepath.Join(dir, "types")}
	for _, d := range []string{s.objects, s.types} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, fmt.Errorf("storage: create %s: %w", d, err)
		}
	}
	return s, nil
}

// Check implements Checker: both directories are still there (a volume unmounted under a running
// server is not).
func (s *FS) Check(context.Context) error {
	for _, d := range []string{s.objects, s.types} {
		info, err := os.Stat(d)
		if err != nil {
			return err
		}
		if !info.IsDir() {
			return fmt.Errorf("storage: %s is not a directory", d)
		}
	}
	return nil
}

func (s *FS) objectPath(key string) string { return filepath.Join(s.objects, filepath.FromSlash(key)) }
func (s *FS) typePath(key string) string   { return filepath.Join(s.types, filepath.FromSlash(key)) }

// Put implements Storage.
func (s *FS) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	ct, err := checkContentType(contentType)
	if err != nil {
		return err
	}
	objTmp, err := s.writeTemp(s.objectPath(key), &ctxReader{ctx: ctx, r: r}, size, key)
	if err != nil {
		return err
	}
	defer os.Remove(objTmp) // a no-op once renamed
	typeTmp, err := s.writeTemp(s.typePath(key), strings.NewReader(ct+"\n"), -1, key)
	if err != nil {
		return err
	}
	defer os.Remove(typeTmp)
	if err := os.Rename(typeTmp, s.typePath(key)); err != nil {
		return apperr.Internal(fmt.Errorf("storage: put %s: %w", key, err))
	}
	if err := os.Rename(objTmp, s.objectPath(key)); err != nil {
		return apperr.Internal(fmt.Errorf("storage: put %s: %w", key, err))
	}
	return nil
}

// writeTemp copies r into a new temporary file beside final and returns its name. With size >= 0
// the copy must be exactly size bytes.
func (s *FS) writeTemp(final string, r io.Reader, size int64, key string) (string, error) {
	dir := filepath.Dir(final)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", s.putError(key, err)
	}
	// A key segment could clash with a directory of another key ("a" vs "a/b"); the rename then
	// fails and the caller gets an error, not a corrupted tree.
	f, err := os.CreateTemp(dir, TemporaryPrefix+"*")
	if err != nil {
		return "", s.putError(key, err)
	}
	name := f.Name()
	fail := func(err error) (string, error) {
		_ = f.Close()
		_ = os.Remove(name)
		return "", err
	}
	src := r
	if size >= 0 {
		src = io.LimitReader(r, size+1) // one byte more reveals a reader longer than size
	}
	n, err := io.Copy(f, src)
	if err != nil {
		if ae := (*apperr.Error)(nil); errors.As(err, &ae) {
			return fail(err)
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return fail(err)
		}
		return fail(s.putError(key, err))
	}
	if size >= 0 && n != size {
		return fail(errSizeMismatch(key, size))
	}
	// Sync before rename, or a crash can leave the new name pointing at an empty file.
	if err := f.Sync(); err != nil {
		return fail(s.putError(key, err))
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(name)
		return "", s.putError(key, err)
	}
	return name, nil
}

func (s *FS) putError(key string, err error) error {
	return apperr.Internal(fmt.Errorf("storage: put %s: %w", key, err))
}

// Get implements Storage.
func (s *FS) Get(ctx context.Context, key string) (io.ReadCloser, Object, error) {
	if err := checkKey(key); err != nil {
		return nil, Object{}, err
	}
	f, err := os.Open(s.objectPath(key))
	if err != nil {
		return nil, Object{}, s.readError(key, err)
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, Object{}, s.readError(key, err)
	}
	if info.IsDir() {
		_ = f.Close()
		return nil, Object{}, notFound(key)
	}
	return f, s.describe(key, info), nil
}

// Stat implements Storage.
func (s *FS) Stat(ctx context.Context, key string) (Object, error) {
	if err := checkKey(key); err != nil {
		return Object{}, err
	}
	info, err := os.Stat(s.objectPath(key))
	if err != nil {
		return Object{}, s.readError(key, err)
	}
	if info.IsDir() {
		return Object{}, notFound(key)
	}
	return s.describe(key, info), nil
}

// Delete implements Storage.
func (s *FS) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	// The object goes first: once it is gone the key is absent, whatever happens to the type.
	for _, p := range []string{s.objectPath(key), s.typePath(key)} {
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && info.IsDir()) {
			continue
		}
		if err == nil {
			err = os.Remove(p)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return apperr.Internal(fmt.Errorf("storage: delete %s: %w", key, err))
		}
	}
	return nil
}

// List implements Storage. The temporary files of a put in progress (or cut short by a crash) are
// not objects, and are not listed.
func (s *FS) List(ctx context.Context, prefix string, fn func(Object) error) error {
	if err := checkPrefix(prefix); err != nil {
		return err
	}
	root := filepath.Join(s.objects, filepath.FromSlash(prefix))
	var stopped error // fn's own error, returned as it is
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll // nothing was ever stored under prefix
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), TemporaryPrefix) {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted since the directory was read
		}
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(s.objects, p)
		if err != nil {
			return err
		}
		stopped = fn(Object{Key: filepath.ToSlash(rel), Size: info.Size(), ModTime: info.ModTime().UTC()})
		return stopped
	})
	if err == nil || err == stopped || errors.Is(err, ctx.Err()) {
		return err
	}
	return apperr.Internal(fmt.Errorf("storage: list %s: %w", prefix, err))
}

// TemporaryPrefix begins the name of a put's temporary file, written beside the object and renamed
// into place; such a file is never an object.
const TemporaryPrefix = ".put-"

// StaleTemporaryAge is how old a put's temporary file must be before RemoveStaleTemporaries takes
// it for the debris of a crash: a put copies a file already checked on local disk, in seconds.
const StaleTemporaryAge = time.Hour

// RemoveStaleTemporaries deletes the temporary files (".put-*") older than StaleTemporaryAge that
// puts cut short by a crash left in the tree (a killed process runs no deferred removal), and
// answers how many it deleted. The kernel calls it when a process starts, which is when there can
// be such files. Younger ones may belong to a put in progress in another process on the same
// directory, and are kept.
func (s *FS) RemoveStaleTemporaries() (int, error) {
	before := time.Now().Add(-StaleTemporaryAge) // file times are the system clock's
	removed := 0
	for _, dir := range []string{s.objects, s.types} {
		// Walked and removed through an os.Root: a symbolic link in the tree cannot lead the
		// removal outside it.
		root, err := os.OpenRoot(dir)
		if err != nil {
			return removed, fmt.Errorf("storage: remove temporary files: %w", err)
		}
		err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() || !strings.HasPrefix(d.Name(), TemporaryPrefix) {
				return nil
			}
			info, err := d.Info()
			if err != nil || !info.ModTime().Before(before) {
				return nil // gone since the directory was read, or young: kept
			}
			if err := root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			removed++
			return nil
		})
		_ = root.Close()
		if err != nil {
			return removed, fmt.Errorf("storage: remove temporary files: %w", err)
		}
	}
	return removed, nil
}

func (s *FS) describe(key string, info fs.FileInfo) Object {
	ct := DefaultContentType
	if b, err := os.ReadFile(s.typePath(key)); err == nil {
		if t := strings.TrimSpace(string(b)); t != "" {
			ct = t
		}
	}
	return Object{Key: key, ContentType: ct, Size: info.Size(), ModTime: info.ModTime().UTC()}
}

func (s *FS) readError(key string, err error) error {
	// ENOTDIR: a segment of the key is an object ("a" exists, "a/b" asked).
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return notFound(key)
	}
	return apperr.Internal(fmt.Errorf("storage: read %s: %w", key, err))
}

func notFound(key string) error {
	return &apperr.Error{Code: apperr.ENOTFOUND, Message: "Object not found.", Cause: fmt.Errorf("storage: no object %q", key)}
}

// ctxReader stops a long copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
