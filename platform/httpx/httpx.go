// Package httpx is the HTTP edge shared by every module: handlers that return errors, the one
// mapping from error codes to statuses and the error envelope of DESIGN.md §3, JSON binding with
// validation, body limits, request ids, access logs, panics, CSRF and caching headers.
package httpx

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"marquee/platform/apperr"
	"marquee/platform/db"
)

// ErrorBody is the error envelope of every failed call.
type ErrorBody struct {
	Success bool              `json:"success"`
	Message string            `json:"message"`
	Errors  map[string]string `json:"errors,omitempty"`
	// Code is apperr.Error.Reason: why, for a client that acts on it (a card error code, say).
	Code string `json:"code,omitempty"`
}

// Status maps an error code to its HTTP status.
func Status(code apperr.Code) int {
	switch code {
	case apperr.EINVALID:
		return http.StatusBadRequest
	case apperr.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case apperr.EFORBIDDEN:
		return http.StatusForbidden
	case apperr.ENOTFOUND:
		return http.StatusNotFound
	case apperr.ECONFLICT:
		return http.StatusConflict
	case apperr.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case apperr.EUNSUPPORTED:
		return http.StatusUnprocessableEntity
	case apperr.EMEDIATYPE:
		return http.StatusUnsupportedMediaType
	case apperr.ERATELIMIT:
		return http.StatusTooManyRequests
	case apperr.EPAYMENT:
		return http.StatusPaymentRequired
	case apperr.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case apperr.ENOSPACE:
		return http.StatusInsufficientStorage
	default:
		return http.StatusInternalServerError
	}
}

// HandlerFunc is a gin handler that returns its error instead of writing it.
type HandlerFunc func(c *gin.Context) error

// H adapts a HandlerFunc: a returned error is written by WriteError.
func H(fn HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := fn(c); err != nil {
			WriteError(c, err)
		}
	}
}

// StatusClientClosedRequest is the status a request is logged and counted with when its client
// went away before the answer (nginx's 499): nobody reads that answer, and it is no fault of the
// server, so it is no internal error in the log and no 5xx for the error-rate alert
// (docs/operations.md, "Alerts worth setting"). A page left while its calls were running (a
// preview being drawn, the faces of a map) ended as logged 500s before.
const StatusClientClosedRequest = 499

// WriteError writes err as the error envelope and aborts. Internal errors are logged with the
// request id and shown only as "Internal error.".
func WriteError(c *gin.Context, err error) {
	if errors.Is(err, context.Canceled) && errors.Is(c.Request.Context().Err(), context.Canceled) {
		Logger(c).Info("request canceled by its client", "err", err.Error())
		c.AbortWithStatus(StatusClientClosedRequest)
		return
	}
	e := apperr.As(err)
	if e.Code == apperr.EINTERNAL {
		// An outage or a full disk under the request is no bug: 503 or 507 with a message the
		// user can act on (wait), the cause logged and never shown.
		if f := db.Fault(err); f != nil {
			Logger(c).Warn("dependency fault", "code", string(f.Code), "err", err.Error())
			e = &apperr.Error{Code: f.Code, Message: f.Message}
		}
	}
	status := Status(e.Code)
	if e.Code == apperr.EINTERNAL {
		Logger(c).Error("internal error", "err", err.Error())
		e = &apperr.Error{Code: apperr.EINTERNAL, Message: apperr.MsgInternal}
	}
	switch e.Code {
	case apperr.ERATELIMIT:
		c.Header("Retry-After", "60")
	case apperr.EUNAVAILABLE:
		c.Header("Retry-After", "5")
	}
	c.AbortWithStatusJSON(status, ErrorBody{Success: false, Message: e.Message, Errors: e.Fields, Code: e.Reason})
}

// JSON writes v with the status.
func JSON(c *gin.Context, status int, v any) { c.JSON(status, v) }

// Success is the plain success answer of calls whose spec answer is a message.
type Success struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
}

// Fail writes an error with a code and message; for middleware that has no service error.
func Fail(c *gin.Context, code apperr.Code, message string) {
	WriteError(c, apperr.New(code, message))
}

// Recovery turns a panic into a logged 500 with the envelope.
func Recovery() gin.HandlerFunc {
	return gin.CustomRecovery(func(c *gin.Context, rec any) {
		Logger(c).Error("panic", "panic", rec)
		c.AbortWithStatusJSON(http.StatusInternalServerError, ErrorBody{Message: apperr.MsgInternal})
	})
}

// NoStore marks API answers as never cached (A §7: "no-cache headers").
func NoStore() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Header("Cache-Control", "no-store")
		c.Next()
	}
}

// permissionsPolicy turns off the browser features Marquee never uses, for its pages and any frame.
const permissionsPolicy = "camera=(), microphone=(), geolocation=(), usb=(), serial=(), bluetooth=(), midi=(), " +
	"magnetometer=(), gyroscope=(), accelerometer=(), display-capture=(), browsing-topics=(), payment=(self \"https://js.stripe.com\")"

// SecurityHeaders sets the headers every answer, HTML and API alike, carries (docs/operations.md
// "Security settings"): the Content-Security-Policy csp (platform/server/csp.go), Referrer-Policy,
// Permissions-Policy, and Strict-Transport-Security when Marquee is served over https (hsts:
// BASE_URL is https; or the request itself came over TLS).
func SecurityHeaders(csp string, hsts bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Permissions-Policy", permissionsPolicy)
		if csp != "" {
			h.Set("Content-Security-Policy", csp)
		}
		if hsts || c.Request.TLS != nil {
			h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
		}
		c.Next()
	}
}

// CSRFHeader is the header a cross-site form cannot send (DESIGN.md §3).
const CSRFHeader = "X-Requested-With"

// MsgCSRF answers a state-changing call without the CSRF header.
const MsgCSRF = "This request was refused: it did not come from the Marquee app."

// RequireXHR refuses a request without `X-Requested-With: XMLHttpRequest`. Browsers only let a page
// set that header on same-origin fetches, so a cross-site form or link cannot pass.
func RequireXHR() gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.GetHeader(CSRFHeader) != "XMLHttpRequest" {
			Fail(c, apperr.EFORBIDDEN, MsgCSRF)
			return
		}
		c.Next()
	}
}

// SideEffectGET wraps the handler of a GET that changes something (the spec gives some such paths,
// like /users/logout): like an unsafe method, it needs the CSRF header and an Origin of ours.
func SideEffectGET(h HandlerFunc) HandlerFunc {
	return func(c *gin.Context) error {
		if c.GetHeader(CSRFHeader) != "XMLHttpRequest" || !sameOrigin(c) {
			return apperr.New(apperr.EFORBIDDEN, MsgCSRF)
		}
		return h(c)
	}
}

// originsKey holds, in the gin context, the other origins CSRF accepts (the configured BASE_URL's).
const originsKey = "httpx.origins"

// CSRF guards every unsafe method (POST, PUT, PATCH, DELETE) twice: it needs the CSRF
// header (RequireXHR), and a request that names its Origin must name ours: the request's own host,
// or one of origins (BASE_URL, for a proxy that rewrites Host). The header alone trusts the browser
// to keep a cross-site page from setting it; the Origin check does not depend on that, and refuses
// a misconfigured CORS or a sandboxed page ("null"). A request without Origin (a non-browser
// client, an old browser's same-origin GET turned POST) is judged by the header alone.
func CSRF(origins ...string) gin.HandlerFunc {
	xhr := RequireXHR()
	return func(c *gin.Context) {
		c.Set(originsKey, origins)
		switch c.Request.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			c.Next()
		default:
			if !sameOrigin(c) {
				Fail(c, apperr.EFORBIDDEN, MsgCSRF)
				return
			}
			xhr(c)
		}
	}
}

// sameOrigin reports whether the request's Origin, when it has one, is ours.
func sameOrigin(c *gin.Context) bool {
	origin := c.GetHeader("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null", or not an origin at all
	}
	if strings.EqualFold(u.Host, c.Request.Host) {
		return true
	}
	allowed, _ := c.Get(originsKey)
	others, _ := allowed.([]string)
	for _, o := range others {
		if a, err := url.Parse(o); err == nil && strings.EqualFold(a.Scheme, u.Scheme) && strings.EqualFold(a.Host, u.Host) {
			return true
		}
	}
	return false
}

// IsTooLarge reports whether err came from http.MaxBytesReader.
func IsTooLarge(err error) bool {
	var mbe *http.MaxBytesError
	return errors.As(err, &mbe)
}

// Logger returns the request's logger (with its request id), or the default logger.
func Logger(c *gin.Context) *slog.Logger {
	v, _ := c.Get(loggerKey)
	switch l := v.(type) {
	case *slog.Logger:
		return l
	case requestLogger:
		made := l.base.With("request_id", l.id)
		c.Set(loggerKey, made)
		return made
	}
	return slog.Default()
}
