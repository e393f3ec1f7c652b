// Package storage keeps uploaded files and generated documents as objects under keys: on the local
// file system by default, or in any S3-compatible store through minio-go (DESIGN.md §1.8, §8).
package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"marquee/platform/apperr"
)

// Drivers.
const (
	DriverFS = "fs"
	DriverS3 = "s3"
)

// MaxKeyLen is the longest key, in bytes; S3 allows 1024, we keep room for a prefix.
const MaxKeyLen = 512

// DefaultContentType is stored when Put is given none.
const DefaultContentType = "application/octet-stream"

// Object describes a stored object.
type Object struct {
	Key         string
	ContentType string
	Size        int64
	ModTime     time.Time
}

// Storage stores objects under keys. Keys must satisfy ValidKey.
type Storage interface {
	// Put stores r under key, replacing any object there. size is the byte count, or -1 when
	// unknown (streamed; the object is never buffered whole in memory). Returns EINVALID for a bad
	// key or when r does not hold exactly size bytes.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	// Get opens the object; the caller closes the reader. Returns ENOTFOUND when absent, EINVALID
	// for a bad key.
	Get(ctx context.Context, key string) (io.ReadCloser, Object, error)
	// Stat describes the object. Returns ENOTFOUND when absent, EINVALID for a bad key.
	Stat(ctx context.Context, key string) (Object, error)
	// Delete removes the object; deleting an absent key is not an error. Returns EINVALID for a
	// bad key.
	Delete(ctx context.Context, key string) error
	// List calls fn for every object whose key starts with prefix, a folder: "" or a valid key
	// followed by "/". The objects under one folder come one after the other; no other order is
	// promised. ContentType is left empty (neither driver's listing has it). fn's error stops the
	// listing and is returned. Returns EINVALID for a bad prefix.
	List(ctx context.Context, prefix string, fn func(Object) error) error
}

// Checker is a driver that can say whether its store answers: the bucket exists and is reachable,
// or the directory is there. /readyz asks it; both drivers implement it.
type Checker interface {
	Check(ctx context.Context) error
}

// Getter is the part of a Storage that SHA256 reads through.
type Getter interface {
	Get(ctx context.Context, key string) (io.ReadCloser, Object, error)
}

// SHA256 is the hex SHA-256 of the object under key, read as a stream (a large file is never
// whole in memory): what the proof chain signs of a proof photo and what a screen checks of a
// creative it downloads. Returns Get's errors.
func SHA256(ctx context.Context, s Getter, key string) (string, error) {
	rc, _, err := s.Get(ctx, key)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.Copy(h, rc); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Check asks s whether its store answers; a driver without a check is taken to answer.
func Check(ctx context.Context, s Storage) error {
	if c, ok := s.(Checker); ok {
		return c.Check(ctx)
	}
	return nil
}

// Options choose and configure a driver (STORAGE_DRIVER, S3_* in docs/platform-services.md).
type Options struct {
	Driver string // "fs" (default) | "s3"
	Dir    string // root directory of the fs driver

	S3Endpoint  string // host[:port], no scheme
	S3AccessKey string
	S3SecretKey string
	S3Bucket    string
	S3Region    string // default us-east-1
	S3UseSSL    bool
}

// Open returns the storage that o describes. For s3 it creates the bucket when missing.
func Open(ctx context.Context, o Options) (Storage, error) {
	switch o.Driver {
	case "", DriverFS:
		return NewFS(o.Dir)
	case DriverS3:
		return NewS3(ctx, o)
	default:
		return nil, fmt.Errorf("storage: unknown driver %q (want fs or s3)", o.Driver)
	}
}

// ValidKey reports whether key can name an object: relative, slash-separated, at most MaxKeyLen
// bytes of UTF-8, without a leading "/", empty segments, "." or ".." segments, backslashes or
// control characters. The same keys then mean the same thing on a file system and in S3.
func ValidKey(key string) bool {
	if key == "" || len(key) > MaxKeyLen || !utf8.ValidString(key) {
		return false
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return false
		}
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

func checkKey(key string) error {
	if !ValidKey(key) {
		return apperr.Errorf(apperr.EINVALID, "Invalid storage key %q.", key)
	}
	return nil
}

// checkPrefix accepts "" and a valid key followed by "/" (List).
func checkPrefix(prefix string) error {
	if prefix == "" || strings.HasSuffix(prefix, "/") && ValidKey(strings.TrimSuffix(prefix, "/")) {
		return nil
	}
	return apperr.Errorf(apperr.EINVALID, "Invalid storage prefix %q.", prefix)
}

// checkContentType keeps a content type to one header line, as it ends up in an HTTP header.
func checkContentType(ct string) (string, error) {
	if ct == "" {
		return DefaultContentType, nil
	}
	if len(ct) > 255 || strings.ContainsFunc(ct, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", apperr.Errorf(apperr.EINVALID, "Invalid content type %q.", ct)
	}
	return ct, nil
}

func errSizeMismatch(key string, size int64) error {
	return apperr.Errorf(apperr.EINVALID, "Object %q does not hold the %d bytes announced.", key, size)
}
