package webhooks_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"marquee/modules/campaigns"
	"marquee/modules/identity"
	"marquee/modules/webhooks"
	"marquee/platform/auth"
	"marquee/platform/testkit"
)

// A disabled company's deliveries are held (neither sent nor failed) and go out once
// it is enabled again; a moderated session makes, changes and reveals no endpoint.

func TestDisabledCompanyDeliveriesAreHeld(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
		var calls atomic.Int32
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			calls.Add(1)
		}))
		defer recv.Close()
		ep := f.create(t, recv.URL+"/hooks", webhooks.TypeMakeGoodGranted)

		setStatus := func(status string) {
			t.Helper()
			if err := f.s.Kernel.DB.Exec("UPDATE identity_companies SET status = ? WHERE id = ?", status, f.advAcc.CompanyID).Error; err != nil {
				t.Fatal(err)
			}
		}
		setStatus(identity.StatusDisabled)
		if err := f.s.Kernel.Events.Publish(t.Context(), campaigns.EventMakeGoodGranted, campaigns.MakeGoodGrantedEvent{CampaignID: "camp-1",
			CompanyID: f.advAcc.CompanyID, WeekID: "week-1", CreditCents: 100, MakeGoodID: "mg-1"}); err != nil {
			t.Fatal(err)
		}
		f.dispatch(t)
		f.s.Clock.Advance(webhooks.RetryWindow + webhooks.HoldRecheck) // held past the retry window
		f.dispatch(t)
		if n := calls.Load(); n != 0 {
			t.Fatalf("%d posts while the company is disabled", n)
		}
		var d struct {
			Status    string
			Attempts  int
			LastError string
		}
		if err := f.s.Kernel.DB.Table("webhooks_deliveries").Where("endpoint_id = ?", ep.Endpoint.ID).Take(&d).Error; err != nil {
			t.Fatal(err)
		}
		if d.Status != webhooks.StatusPending || d.Attempts != 0 || d.LastError != webhooks.MsgHeldCompanyDisabled {
			t.Fatalf("held delivery = %+v", d)
		}

		setStatus(identity.StatusActive)
		f.s.Clock.Advance(webhooks.HoldRecheck)
		f.dispatch(t)
		if n := calls.Load(); n != 1 {
			t.Fatalf("%d posts after enabling", n)
		}
	})
}

func TestModeratedSessionMakesNoEndpoint(t *testing.T) {
	testkit.ForEachDialect(t, func(t *testing.T, dialect string) {
		f := start(t, dialect, testkit.WithEnv("WEBHOOK_ALLOW_PRIVATE", "true"))
		ep := f.create(t, "http://127.0.0.1:9/hooks", webhooks.TypeMakeGoodGranted)
		ids := testkit.ModuleOf[*identity.Module](t, f.s).Service()
		admin, _, err := ids.CreateUser(t.Context(), identity.CreateUserRequest{Email: "admin@webhooks.test", Password: "webhooks password 1",
			Role: identity.RoleAdmin, CompanyName: "Marquee"})
		if err != nil {
			t.Fatal(err)
		}
		c := f.s.Client(t)
		c.SessionAs(f.s, admin.ID)
		c.Post("/moderate-signin", identity.ModerateSignInRequest{Email: "ada@webhooks.test"}).Expect(t, http.StatusOK)
		for _, r := range []*testkit.Response{
			c.Post("/api/webhooks", map[string]any{"url": "http://127.0.0.1:9/other", "events": []string{webhooks.TypeMakeGoodGranted}}),
			c.Put("/api/webhooks/"+ep.Endpoint.ID, map[string]any{"url": "http://127.0.0.1:9/elsewhere", "events": []string{webhooks.TypeMakeGoodGranted}}),
			c.Get("/api/webhooks/" + ep.Endpoint.ID + "/secret"),
		} {
			if got := r.Expect(t, http.StatusForbidden).Map(t); got["message"] != auth.MsgModeratedCredentials {
				t.Fatalf("refusal = %v", got)
			}
		}
		var list webhooks.EndpointsResponse
		c.Get("/api/webhooks").Expect(t, http.StatusOK).JSON(t, &list) // reading the list is fine
		if len(list.Endpoints) != 1 || list.Endpoints[0].URL != "http://127.0.0.1:9/hooks" {
			t.Fatalf("endpoints = %+v", list.Endpoints)
		}
	})
}
