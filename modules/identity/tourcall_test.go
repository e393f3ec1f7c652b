package identity_test

import (
	"testing"

	"marquee/modules/identity"
	"marquee/platform/testkit"
)

// B §8's default confirm offers a call for a free dashboard tour: yes records the user's phone
// consent and hands it to the CRM (the phone-consent event), as the sign-up consent does.
func TestTourCallRequest(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		s := start(t, dialect)
		consents := func() int64 {
			var n int64
			s.Kernel.DB.Table("events_outbox").Where("name = ?", identity.EventPhoneConsent).Count(&n)
			return n
		}
		anonymous := s.Client(t)
		anonymous.Post("/users/tour-call", map[string]any{}).Expect(t, 401)

		withPhone := s.Client(t)
		withPhone.Post("/signup", identity.SignUpRequest{Company: "Sunrise Coffee", Email: "ada@example.com", Phone: "+1 415 555 0100", Password: goodPassword, SendPhoneZoho: false}).Expect(t, 201)
		before := consents()
		var answer identity.MessageResponse
		withPhone.Post("/users/tour-call", map[string]any{}).Expect(t, 200).JSON(t, &answer)
		if !answer.Success || answer.Message != identity.MsgTourCallRequested {
			t.Fatalf("answer = %+v", answer)
		}
		if consents() != before+1 {
			t.Fatalf("no phone-consent event: %d → %d", before, consents())
		}
		var me identity.User
		withPhone.Get("/users/currentUser").Expect(t, 200).JSON(t, &me)
		if !me.SendPhoneZoho {
			t.Fatal("the consent was not recorded")
		}

		noPhone := s.Client(t)
		noPhone.Post("/signup", identity.SignUpRequest{Company: "Moonrise Tea", Email: "bob@example.com", Password: goodPassword}).Expect(t, 201)
		r := noPhone.Post("/users/tour-call", map[string]any{}).Expect(t, 400)
		if got := r.Map(t)["errors"].(map[string]any)["phone"]; got != identity.MsgTourCallNeedsPhone {
			t.Fatalf("without a phone: %s", r.Body)
		}
		if consents() != before+1 {
			t.Fatal("an event without a phone")
		}
	})
}
