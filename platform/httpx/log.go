package httpx

import (
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
		// The request's logger is made when a handler asks for it (Logger): most requests only
		// write the access line, and a logger per request was an allocation each (issue 16).
		c.Set(loggerKey, requestLogger{base: base, id: id})
		start := time.Now()
		c.Next()
		status := c.Writer.Status()
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		ctx := c.Request.Context()
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
