// Package flash carries a message from the server to the next page the browser shows. The message
// rides in a short-lived cookie that the web app reads once and deletes (it holds nothing secret,
// so it is not HttpOnly).
package flash

import (
	"encoding/base64"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"
)

// CookieName is the flash cookie the web app reads.
const CookieName = "marquee_flash"

// Kinds of flash.
const (
	Success = "success"
	Danger  = "danger"
	Info    = "info"
)

// Message is one flash.
type Message struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Set stores a flash for the next page; it lives at most a minute if never shown.
func Set(c *gin.Context, kind, message string, secure bool) {
	raw, _ := json.Marshal(Message{Kind: kind, Message: message})
	http.SetCookie(c.Writer, &http.Cookie{Name: CookieName, Value: base64.RawURLEncoding.EncodeToString(raw), Path: "/", // #nosec G124 -- the web app reads this cookie (no secret in it), so it cannot be HttpOnly
		MaxAge: 60, Secure: secure, SameSite: http.SameSiteLaxMode})
}
