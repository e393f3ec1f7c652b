package flash

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestSetWritesACookieTheAppCanRead(t *testing.T) {
	gin.SetMode(gin.TestMode)
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest(http.MethodGet, "/", nil)
	Set(c, Danger, "Your session has expired please login again.", true)
	res := w.Result()
	cookies := res.Cookies()
	if len(cookies) != 1 || cookies[0].Name != CookieName {
		t.Fatalf("cookies = %v", cookies)
	}
	ck := cookies[0]
	if ck.HttpOnly || !ck.Secure || ck.MaxAge != 60 || ck.SameSite != http.SameSiteLaxMode {
		t.Fatalf("cookie attributes = %+v", ck)
	}
	m, ok := decode(ck.Value)
	if !ok || m.Kind != Danger || m.Message != "Your session has expired please login again." {
		t.Fatalf("decoded %+v, %v", m, ok)
	}
	if _, ok := decode("not base64!"); ok {
		t.Fatal("garbage decoded")
	}
}

// decode reads a flash cookie value, as the web app does (webapp/src/platform/flash/flash.ts).
func decode(value string) (Message, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil {
		return Message{}, false
	}
	var m Message
	if json.Unmarshal(raw, &m) != nil || m.Message == "" {
		return Message{}, false
	}
	return m, true
}
