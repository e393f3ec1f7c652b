package httpx

import (
	"context"
	"log/slog"
	"time"

	"github.com/gin-gonic/gin"

	"marquee/platform/ids"
)

const loggerKey = "httpx.logger"

// RequestIDHeader carries the request id in and out.
const RequestIDHeader = "X-Request-Id"

// RequestLog gives each request an id (kept from a proxy when it looks sane), a logger carrying it,
// and one structured access-log line when it ends.
func RequestLog(base *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := c.GetHeader(RequestIDHeader)
		if len(id) == 0 || len(id) > 64 {
			id = ids.New()
		}
		c.Header(RequestIDHeader, id)
		// The id rides in the request's context too, so a service that logs with the context it
		// was given (log.ErrorContext(ctx, ...)), and gorm's slow-query log, carry it.
		parent := c.Request.Context()
		c.Request = c.Request.WithContext(WithRequestID(parent, id))
		// The request's logger is made when a handler asks for it (Logger): most requests only
		// write the access line, and a logger per request was an allocation each.
		c.Set(loggerKey, requestLogger{base: base, id: id})
		start := time.Now()
		c.Next()
		status := c.Writer.Status()
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		ctx := parent // the access line names its request_id itself
		if !base.Enabled(ctx, level) {
			return
		}
		path := c.FullPath() // the route pattern: ids and tokens in paths stay out of the log
		if path == "" {
			path = c.Request.URL.Path // a page of the web app; never the query string
		}
		base.LogAttrs(ctx, level, "request",
			slog.String("request_id", id),
			slog.String("method", c.Request.Method),
			slog.String("path", path),
			slog.Int("status", status),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			slog.Int("bytes", c.Writer.Size()),
		)
	}
}

// requestLogger is what RequestLog keeps for Logger.
type requestLogger struct {
	base *slog.Logger
	id   string
}

type requestIDKey struct{}

// WithRequestID returns ctx carrying the request id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id ctx carries, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// RequestIDHandler wraps a log handler so that every record logged with a request's context gets
// its request_id: an error logged deep in a service is found from the id the client saw in
// X-Request-Id. A logger that already says request_id (Logger) is left alone.
func RequestIDHandler(h slog.Handler) slog.Handler { return requestIDHandler{next: h} }

type requestIDHandler struct {
	next slog.Handler
	has  bool // request_id is among the logger's own attributes
}

func (h requestIDHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if !h.has {
		if id := RequestID(ctx); id != "" {
			r.AddAttrs(slog.String("request_id", id))
		}
	}
	return h.next.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	has := h.has
	for _, a := range attrs {
		has = has || a.Key == "request_id"
	}
	return requestIDHandler{next: h.next.WithAttrs(attrs), has: has}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	// A grouped logger's records get the request_id inside the group: slog adds a record's
	// attributes there, and nested is better than missing.
	return requestIDHandler{next: h.next.WithGroup(name), has: h.has}
}
