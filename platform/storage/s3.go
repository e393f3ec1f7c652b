package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"marquee/platform/apperr"
)

// streamPartSize bounds the memory of a Put of unknown size: minio-go buffers one part at a time.
// Its own default for unknown sizes is a ~537 MiB part, which is far too much for an upload
// handler. 16 MiB parts still allow objects of 160 GB (10,000 parts).
const streamPartSize = 16 << 20

// S3 stores objects in a bucket of an S3-compatible store (AWS S3, MinIO, ...).
type S3 struct {
	client   *minio.Client
	bucket   string
	partSize uint64
}

var _ Storage = (*S3)(nil)

// NewS3 connects to the store and creates the bucket when it is missing.
func NewS3(ctx context.Context, o Options) (*S3, error) {
	if o.S3Endpoint == "" || o.S3Bucket == "" {
		return nil, errors.New("storage: s3 driver needs S3_ENDPOINT and S3_BUCKET")
	}
	region := o.S3Region
	if region == "" {
		region = "us-east-1"
	}
	client, err := minio.New(o.S3Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(o.S3AccessKey, o.S3SecretKey, ""),
		Secure: o.S3UseSSL,
		Region: region,
		// Auto: virtual-host style where the provider wants it (AWS), path style elsewhere
		// (MinIO, IP addresses, test servers).
		BucketLookup: minio.BucketLookupAuto,
		// A store that is down answers in about 2 s (backoff of 200 ms doubling, capped at 1 s)
		// rather than minio-go's 10 retries, so an upload fails fast with a 503 instead of holding
		// the request and its cleanup for 10 s each.
		MaxRetries: 4,
	})
	if err != nil {
		return nil, fmt.Errorf("storage: s3 client: %w", err)
	}
	s := &S3{client: client, bucket: o.S3Bucket, partSize: streamPartSize}
	if err := s.ensureBucket(ctx, region); err != nil {
		return nil, err
	}
	return s, nil
}

// Check implements Checker: the bucket exists and the store answers with these credentials.
func (s *S3) Check(ctx context.Context) error {
	exists, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("storage: check bucket %s: %w", s.bucket, err)
	}
	if !exists {
		return fmt.Errorf("storage: bucket %s does not exist", s.bucket)
	}
	return nil
}

func (s *S3) ensureBucket(ctx context.Context, region string) error {
	exists, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return fmt.Errorf("storage: check bucket %s: %w", s.bucket, err)
	}
	if exists {
		return nil
	}
	if err := s.client.MakeBucket(ctx, s.bucket, minio.MakeBucketOptions{Region: region}); err != nil {
		// Another replica may have created it between our check and our request.
		code := minio.ToErrorResponse(err).Code
		if code == "BucketAlreadyOwnedByYou" || code == "BucketAlreadyExists" {
			return nil
		}
		return fmt.Errorf("storage: create bucket %s: %w", s.bucket, err)
	}
	return nil
}

// Put implements Storage.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	ct, err := checkContentType(contentType)
	if err != nil {
		return err
	}
	src := r
	var counted *countingReader
	if ra, ok := r.(readSeekerAt); ok && size >= 0 {
		// A file (or an in-memory reader): minio-go hashes it in place and sends it without copying
		// it into a buffer of its size. Its length is checked here instead of by counting.
		section, err := exactSection(ra, size)
		if err != nil {
			return errSizeMismatch(key, size)
		}
		src = section
	} else if size >= 0 {
		// minio-go reads exactly size bytes and would ignore the rest; counting one byte more
		// tells a reader that is longer than announced from one that fits.
		counted = &countingReader{r: io.LimitReader(r, size+1), size: size}
		src = counted
	}
	_, err = s.client.PutObject(ctx, s.bucket, key, src, size, minio.PutObjectOptions{
		ContentType: ct,
		PartSize:    s.partSize,
		// Content-MD5 per request instead of the aws-chunked streaming signature minio-go uses
		// over plain HTTP: every S3 store checks the MD5, while not all of them (gofakes3 among
		// them) decode aws-chunked bodies in multipart parts. Over TLS minio-go sends the payload
		// unsigned anyway.
		DisableContentSha256: true,
		SendContentMd5:       true,
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if counted != nil && (counted.n != size || errors.Is(err, errShortBody)) {
			return errSizeMismatch(key, size)
		}
		return s3Error(fmt.Errorf("storage: put %s: %w", key, err), MsgUnavailable)
	}
	if counted != nil {
		if n, _ := io.Copy(io.Discard, io.LimitReader(src, 1)); n > 0 {
			// Too long: the object went in truncated, so it must not stay.
			_ = s.Delete(context.WithoutCancel(ctx), key)
			return errSizeMismatch(key, size)
		}
	}
	return nil
}

// readSeekerAt is a reader whose bytes can be hashed and then re-read, like *os.File.
type readSeekerAt interface {
	io.ReaderAt
	io.Seeker
}

// exactSection returns the size bytes of r from its current offset, or an error when r does not
// hold exactly that many.
func exactSection(r readSeekerAt, size int64) (*io.SectionReader, error) {
	off, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	end, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	if _, err := r.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	if end-off != size {
		return nil, errors.New("storage: size mismatch")
	}
	return io.NewSectionReader(r, off, size), nil
}

// Get implements Storage.
func (s *S3) Get(ctx context.Context, key string) (io.ReadCloser, Object, error) {
	if err := checkKey(key); err != nil {
		return nil, Object{}, err
	}
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, Object{}, s.readError(key, err)
	}
	// GetObject is lazy; Stat makes the request, so absence shows here and not on first Read.
	info, err := obj.Stat()
	if err != nil {
		_ = obj.Close()
		return nil, Object{}, s.readError(key, err)
	}
	return obj, describe(key, info), nil
}

// Stat implements Storage.
func (s *S3) Stat(ctx context.Context, key string) (Object, error) {
	if err := checkKey(key); err != nil {
		return Object{}, err
	}
	info, err := s.client.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return Object{}, s.readError(key, err)
	}
	return describe(key, info), nil
}

// Delete implements Storage. S3 answers a delete of an absent key with success.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		if isNoSuchKey(err) {
			return nil
		}
		return s3Error(fmt.Errorf("storage: delete %s: %w", key, err), MsgReadUnavailable)
	}
	return nil
}

// List implements Storage: the bucket's listing under prefix, page by page (S3 pages hold up to
// 1,000 keys), in key order.
func (s *S3) List(ctx context.Context, prefix string, fn func(Object) error) error {
	if err := checkPrefix(prefix); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx) // stops minio-go's listing goroutine when fn stops early
	defer cancel()
	for info := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if info.Err != nil {
			return s3Error(fmt.Errorf("storage: list %s: %w", prefix, info.Err), MsgReadUnavailable)
		}
		if err := fn(Object{Key: info.Key, Size: info.Size, ModTime: info.LastModified.UTC()}); err != nil {
			return err
		}
	}
	return ctx.Err()
}

func (s *S3) readError(key string, err error) error {
	if isNoSuchKey(err) {
		return notFound(key)
	}
	return s3Error(fmt.Errorf("storage: read %s: %w", key, err), MsgReadUnavailable)
}

// Messages of a call that needed the object store while it could not be reached; the
// same call may succeed in a moment. An upload says that nothing was stored; a read does not
// store anything, so it does not say so.
const (
	MsgUnavailable     = "File storage is briefly unavailable; nothing was stored. Please try again in a moment."
	MsgReadUnavailable = "File storage is briefly unavailable. Please try again in a moment."
)

// s3Error is EUNAVAILABLE with msg when the store could not be reached or answered with a 5xx
// (down, restarting, overloaded), and internal otherwise. Either way the cause is logged, never
// shown.
func s3Error(err error, msg string) error {
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || minio.ToErrorResponse(err).StatusCode >= 500 {
		return &apperr.Error{Code: apperr.EUNAVAILABLE, Message: msg, Cause: err}
	}
	return apperr.Internal(err)
}

func isNoSuchKey(err error) bool {
	resp := minio.ToErrorResponse(err)
	return resp.Code == "NoSuchKey" || resp.StatusCode == http.StatusNotFound && resp.Code != "NoSuchBucket"
}

func describe(key string, info minio.ObjectInfo) Object {
	return Object{Key: key, ContentType: contentTypeOrDefault(info.ContentType), Size: info.Size, ModTime: info.LastModified.UTC()}
}

func contentTypeOrDefault(ct string) string {
	if ct == "" {
		return DefaultContentType
	}
	return ct
}

var errShortBody = errors.New("storage: body shorter than its announced size")

// countingReader counts what it reads, and reports a body that ends before size as an error
// rather than EOF: minio-go would otherwise retry the request, several times, with backoff.
type countingReader struct {
	r    io.Reader
	n    int64
	size int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err == io.EOF && c.n < c.size {
		err = errShortBody
	}
	return n, err
}
