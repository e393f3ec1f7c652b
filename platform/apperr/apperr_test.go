package apperr

import (
	"errors"
	"fmt"
	"testing"
)

func TestCodesSurviveWrapping(t *testing.T) {
	base := NotFound("Campaign not found.")
	wrapped := fmt.Errorf("loading: %w", base)
	if CodeOf(wrapped) != ENOTFOUND || As(wrapped) != base {
		t.Fatal("code lost through wrapping")
	}
	if CodeOf(nil) != "" || CodeOf(errors.New("disk on fire")) != EINTERNAL {
		t.Fatal("plain errors must be internal")
	}
	in := As(errors.New("pq: password authentication failed for user root"))
	if in.Code != EINTERNAL || in.Message != MsgInternal {
		t.Fatalf("an internal error shows %q", in.Message)
	}
	f := Field("email", "Invalid email address")
	if f.Code != EINVALID || f.Fields["email"] != "Invalid email address" || f.Message != "Invalid email address" {
		t.Fatalf("%+v", f)
	}
	if got := Internal(errors.New("x")).WithMessage("shown"); got.Message != MsgInternal {
		t.Fatal("WithMessage must not reveal an internal error's message")
	}
	if got := f.WithMessage("Please fix the form"); got.Message != "Please fix the form" || got.Fields["email"] == "" || f.Message != "Invalid email address" {
		t.Fatalf("WithMessage = %+v, original %+v", got, f)
	}
}
