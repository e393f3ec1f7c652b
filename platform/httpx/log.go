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
		l := base.With("request_id", id)
		c.Set(loggerKey, l)
		start := time.Now()
		c.Next()
		status := c.Writer.Status()
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		path := c.FullPath() // the route pattern: ids and tokens in paths stay out of the log
		if path == "" {
			path = c.Request.URL.Path // a page of the web app; never the query string
		}
		l.Log(c.Request.Context(), level, "request",
			"method", c.Request.Method,
			"path", path,
			"status", status,
			"duration_ms", float64(time.Since(start).Microseconds())/1000,
			"bytes", c.Writer.Size(),
		)
	}
}
