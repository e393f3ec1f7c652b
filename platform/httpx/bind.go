package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"unicode"

	"github.com/gin-gonic/gin"
	"github.com/go-playground/validator/v10"

	"marquee/platform/apperr"
)

// MsgTooLarge answers a body over its limit.
const MsgTooLarge = "The request is too large."

// MsgBadJSON answers a body that is not the expected JSON.
const MsgBadJSON = "The request body is not valid JSON."

// MsgNotJSON answers a JSON call whose body is declared as something else (415).
const MsgNotJSON = "The request body must be JSON (Content-Type: application/json)."

// MsgInvalidInput is the message of a validation failure whose fields say more.
const MsgInvalidInput = "Please correct the highlighted fields."

var (
	validateOnce sync.Once
	validate     *validator.Validate
)

// Validator is the shared validator; fields are named by their json tag.
func Validator() *validator.Validate {
	validateOnce.Do(func() {
		validate = validator.New(validator.WithRequiredStructEnabled())
		validate.RegisterTagNameFunc(func(f reflect.StructField) string {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				return ""
			}
			if name == "" {
				return f.Name
			}
			return name
		})
		// Registered once, here: every request DTO's single-line text field carries it (DESIGN.md
		// §1.14; TestSingleLineFields in cmd/marquee checks that).
		if err := validate.RegisterValidation(TagSingleLine, func(fl validator.FieldLevel) bool {
			f := fl.Field()
			return f.Kind() != reflect.String || IsSingleLine(f.String())
		}, true); err != nil { // true: an absent optional field (a nil *string) is not an error
			panic(err)
		}
	})
	return validate
}

// TagSingleLine is the validator tag of a single-line text field (a name, a title, a code): it
// refuses C0 and C1 control characters (line breaks and tabs among them) and the Unicode line and
// paragraph separators. A name with a line break broke the emails that carry it.
// A request DTO's text field that may hold several lines says so with the struct tag
// `text:"multiline"` instead.
const TagSingleLine = "singleline"

// MsgSingleLine is the field error of a single-line field holding a control character or a line
// separator.
const MsgSingleLine = "Must be one line of text, without control characters."

// IsSingleLine reports whether s holds no control character (C0, DEL, C1) and no U+2028 or
// U+2029.
func IsSingleLine(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return false
		}
	}
	return true
}

// BindJSON decodes the body into v, refusing a body declared as anything but JSON (415), bodies over
// limit bytes (413), malformed JSON (400) and unknown-type values (400 naming the field). It does
// not validate; call Validate.
func BindJSON(c *gin.Context, v any, limit int64) error {
	if c.Request.Body == nil {
		return apperr.New(apperr.EINVALID, MsgBadJSON)
	}
	if !isJSON(c.Request) {
		return apperr.New(apperr.EMEDIATYPE, MsgNotJSON)
	}
	// A body declared over the limit is refused before any of it is read: a client that waits for
	// 100 Continue (curl does for big bodies) gets the 413 instead of a connection reset mid-write
	// (TestRouteBodyFuzz found the resets).
	if c.Request.ContentLength > limit {
		return apperr.New(apperr.ETOOLARGE, MsgTooLarge)
	}
	body := http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	dec := json.NewDecoder(body)
	if err := dec.Decode(v); err != nil {
		var typeErr *json.UnmarshalTypeError
		switch {
		case IsTooLarge(err):
			return apperr.New(apperr.ETOOLARGE, MsgTooLarge)
		case errors.As(err, &typeErr) && typeErr.Field != "":
			return apperr.Field(typeErr.Field, "Invalid value.")
		case errors.Is(err, io.EOF):
			return apperr.New(apperr.EINVALID, MsgBadJSON)
		default:
			return apperr.New(apperr.EINVALID, MsgBadJSON)
		}
	}
	// Anything after the value must be whitespace, and the limit applies to it too: `{} {}` or
	// `{}x` is not one JSON value (the fuzz target FuzzBindJSON found them accepted).
	rest, err := io.ReadAll(io.MultiReader(dec.Buffered(), body))
	if err != nil {
		if IsTooLarge(err) {
			return apperr.New(apperr.ETOOLARGE, MsgTooLarge)
		}
		return apperr.New(apperr.EINVALID, MsgBadJSON)
	}
	if len(bytes.TrimLeft(rest, " \t\r\n")) > 0 {
		return apperr.New(apperr.EINVALID, MsgBadJSON)
	}
	if hasNUL(reflect.ValueOf(v), 0) {
		return apperr.New(apperr.EINVALID, MsgNUL)
	}
	return refuseMultiline(v)
}

// refuseMultiline answers a field error for each singleline field of v holding a control
// character or a line separator. It runs on every body BindJSON reads, so no handler can forget
// it; the other tags are the handler's (Validate, with its messages).
func refuseMultiline(v any) error {
	if reflect.Indirect(reflect.ValueOf(v)).Kind() != reflect.Struct {
		return nil
	}
	var ves validator.ValidationErrors
	if err := Validator().Struct(v); !errors.As(err, &ves) {
		return nil
	}
	fields := map[string]string{}
	for _, fe := range ves {
		if fe.Tag() == TagSingleLine {
			fields[fieldPath(fe.Namespace())] = MsgSingleLine
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return apperr.Invalid(MsgSingleLine, fields)
}

// MsgNUL answers text with a NUL character ("\u0000" in JSON, %00 in a URL): no field takes one,
// and PostgreSQL refuses to store or compare it (an internal error; TestRouteBodyFuzz found them).
const MsgNUL = "The request contains a null character."

// hasNUL reports whether a string held by v (through pointers, interfaces, structs, slices and
// maps, keys included) contains a NUL byte.
func hasNUL(v reflect.Value, depth int) bool {
	if depth > 64 || !v.IsValid() {
		return false
	}
	switch v.Kind() {
	case reflect.String:
		return strings.IndexByte(v.String(), 0) >= 0
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasNUL(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && hasNUL(v.Field(i), depth+1) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return false // []byte is binary ([]byte fields read base64)
		}
		for i := range v.Len() {
			if hasNUL(v.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if hasNUL(it.Key(), depth+1) || hasNUL(it.Value(), depth+1) {
				return true
			}
		}
	}
	return false
}

// RefuseNUL answers 400 to a request whose path or query holds a NUL character (%00): handlers
// read query values straight into database filters, where PostgreSQL refuses it.
func RefuseNUL() gin.HandlerFunc {
	return func(c *gin.Context) {
		u := c.Request.URL
		if strings.IndexByte(u.Path, 0) >= 0 || strings.IndexByte(u.RawQuery, 0) >= 0 || strings.Contains(u.RawQuery, "%00") ||
			strings.Contains(u.EscapedPath(), "%00") {
			Fail(c, apperr.EINVALID, MsgNUL)
			return
		}
		c.Next()
	}
}

// isJSON reports whether r declares a JSON body (application/json or any application/*+json). A
// body declared as text, a form or XML is refused even when it parses as JSON: a cross-site form
// can send those types without a preflight, and a proxy or a log reads the body by its declared
// type. A request with no Content-Type is let through only when it has no body at all, so that an
// empty body still answers the 400 of malformed JSON.
func isJSON(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return r.ContentLength == 0
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// Validate checks v's `validate` tags and returns EINVALID with one message per field. messages maps
// "field" or "field.tag" to the message to show; otherwise a generic one is used.
func Validate(v any, messages map[string]string) error {
	err := Validator().Struct(v)
	if err == nil {
		return nil
	}
	var ves validator.ValidationErrors
	if !errors.As(err, &ves) {
		return apperr.Internal(err)
	}
	fields := map[string]string{}
	for _, fe := range ves {
		name := fieldPath(fe.Namespace())
		if _, seen := fields[name]; seen {
			continue
		}
		msg, ok := messages[name+"."+fe.Tag()]
		if !ok {
			msg, ok = messages[name]
		}
		if !ok {
			msg = genericMessage(fe)
		}
		fields[name] = msg
	}
	message := MsgInvalidInput
	if len(fields) == 1 {
		for _, m := range fields {
			message = m
		}
	}
	return apperr.Invalid(message, fields)
}

// fieldPath turns a validator namespace ("CampaignForm.places_checked[0].name") into the field
// name of an error answer ("places_checked.0.name").
func fieldPath(ns string) string {
	_, path, ok := strings.Cut(ns, ".")
	if !ok {
		return ns
	}
	return strings.NewReplacer("[", ".", "]", "").Replace(path)
}

func genericMessage(fe validator.FieldError) string {
	switch fe.Tag() {
	case TagSingleLine:
		return MsgSingleLine
	case "required":
		return "Required"
	case "email":
		return "Invalid email address"
	case "max":
		return "Too long (at most " + fe.Param() + ")."
	case "min":
		return "Too short (at least " + fe.Param() + ")."
	case "oneof":
		return "Must be one of: " + fe.Param() + "."
	default:
		return "Invalid value."
	}
}
