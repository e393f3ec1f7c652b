package webhooks

import (
	"context"
	"strings"

	"marquee/modules/webhooks/internal/store"
	"marquee/platform/server"
)

// DemoSinkURL is where `marquee dev webhook-sink` listens by default; the demo endpoint points
// at it (deliveries to it need WEBHOOK_ALLOW_PRIVATE=true, which `make run` sets).
const DemoSinkURL = "http://127.0.0.1:8090/hooks"

// DemoSecret is the demo endpoint's signing secret, known to the sink so it can verify (demo only).
const DemoSecret = "whsec_demo_0123456789abcdef0123456789abcdef" // #nosec G101 -- the demo endpoint's published secret, seeded only by seed --demo

// demoEndpointID is fixed so the seed is idempotent.
const demoEndpointID = "00000000-0000-4000-8000-00000000feed"

// seedDemo (Module.SeedDemo) gives the demo advertiser one endpoint pointing at the local webhook sink, subscribed
// to every event type.
func (s *service) seedDemo(ctx context.Context, demo server.DemoAccounts) (string, error) {
	adv, ok := demo["advertiser"]
	if !ok {
		return "", nil
	}
	if _, err := s.store.CompanyEndpoint(ctx, adv.CompanyID, demoEndpointID); err == nil {
		return "webhooks: the demo endpoint exists", nil
	}
	now := s.deps.Clock.Now().UTC()
	row := store.Endpoint{ID: demoEndpointID, CompanyID: adv.CompanyID, UserID: adv.UserID, URL: DemoSinkURL,
		Description: "Local receiver: marquee dev webhook-sink", Events: strings.Join(EventTypes, ","), Secret: DemoSecret,
		Enabled: true, CreatedAt: now, UpdatedAt: now}
	if err := s.store.Create(ctx, &row); err != nil {
		return "", err
	}
	return "webhooks: 1 demo endpoint -> " + DemoSinkURL + " (run `marquee dev webhook-sink`)", nil
}
