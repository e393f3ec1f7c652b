// Package apperr is the one error type of the application (STYLE.md "One error type, one mapping").
// Domain code returns *Error with a Code; platform/httpx maps the code to an HTTP status. Nothing here
// knows about HTTP.
package apperr

import (
	"errors"
	"fmt"
)

// Code classifies an error for its caller.
type Code string

const (
	EINVALID      Code = "invalid"      // bad input; Fields names the inputs
	EUNAUTHORIZED Code = "unauthorized" // not signed in, or bad credentials
	EFORBIDDEN    Code = "forbidden"    // signed in but not allowed
	ENOTFOUND     Code = "not_found"    // absent, or another company's
	ECONFLICT     Code = "conflict"     // a unique rule or a state rule refused the change
	ETOOLARGE     Code = "too_large"    // a body or file over its limit
	EUNSUPPORTED  Code = "unsupported"  // an upload of a type we do not take
	EMEDIATYPE    Code = "media_type"   // a body in a format the call does not read (JSON sent as a form, say)
	ERATELIMIT    Code = "rate_limited" // too many attempts
	EPAYMENT      Code = "payment"      // the payment gateway refused a card or a charge
	EUNAVAILABLE  Code = "unavailable"  // a dependency is down; try later
	ENOSPACE      Code = "no_space"     // the disk is full: nothing was saved; try later
	EINTERNAL     Code = "internal"     // a bug or an outage; never shown to the user
)

// MsgInternal is all a user ever sees of an internal error.
const MsgInternal = "Internal error."

// MsgUnavailable is what a user sees while a dependency (the database, the file store) is down.
const MsgUnavailable = "Marquee is briefly unavailable. Please try again in a moment."

// MsgNoSpace is what a user sees of a write refused because the server's disk is full.
const MsgNoSpace = "Marquee cannot save changes right now: the server is out of disk space. Nothing was saved; please try again later."

// Error is an application error. Message is safe to show to the user; Cause is not. Reason, when
// set, is a machine-readable cause the client may act on (a gateway's card error code, say).
type Error struct {
	Code    Code
	Message string
	Fields  map[string]string
	Reason  string
	Cause   error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

// New returns an error with a code and a user-facing message.
func New(code Code, message string) *Error { return &Error{Code: code, Message: message} }

// Errorf returns an error with a code and a formatted user-facing message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns an EINVALID error with per-field messages.
func Invalid(message string, fields map[string]string) *Error {
	return &Error{Code: EINVALID, Message: message, Fields: fields}
}

// Field returns an EINVALID error for one field, whose message is also the error's message.
func Field(field, message string) *Error {
	return &Error{Code: EINVALID, Message: message, Fields: map[string]string{field: message}}
}

// NotFound returns an ENOTFOUND error.
func NotFound(message string) *Error { return &Error{Code: ENOTFOUND, Message: message} }

// Internal wraps an unexpected error. Its cause is logged, never shown.
func Internal(cause error) *Error {
	return &Error{Code: EINTERNAL, Message: MsgInternal, Cause: cause}
}

// CodeOf returns the code of err: its own when it is (or wraps) an *Error, EINTERNAL otherwise, and
// "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// As returns err as an *Error, wrapping anything else as internal.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Internal(err)
}

// WithMessage returns a copy of e with another user-facing message (fields and cause are kept).
func (e *Error) WithMessage(message string) *Error {
	c := *e
	if c.Code != EINTERNAL {
		c.Message = message
	}
	return &c
}
