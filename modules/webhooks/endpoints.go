package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"

	"marquee/modules/webhooks/internal/store"
	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// newSecret is a signing secret: "whsec_" and 32 random bytes in hex.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return "whsec_" + hex.EncodeToString(b)
}

func endpointDTO(e store.Endpoint) Endpoint {
	evs := splitEvents(e.Events)
	if evs == nil {
		evs = []string{}
	}
	return Endpoint{ID: e.ID, URL: e.URL, Description: e.Description, Events: evs, Enabled: e.Enabled, DisabledAt: e.DisabledAt,
		DisabledReason: e.DisabledReason, FailingSince: e.FailingSince, CreatedAt: e.CreatedAt}
}

func deliveryDTO(d store.Delivery) Delivery {
	out := Delivery{ID: d.ID, EventID: d.EventID, EventType: d.EventType, Status: d.Status, Attempts: d.Attempts,
		LastStatus: d.LastStatus, LastResponse: d.LastResponse, LastError: d.LastError, DeliveredAt: d.DeliveredAt,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt}
	if d.Status == StatusPending {
		t := d.NextAttemptAt
		out.NextAttemptAt = &t
	}
	return out
}

// checkEvents validates the chosen types and returns them in EventTypes order, once each.
func checkEvents(in []string) (string, error) {
	if len(in) == 0 {
		return "", apperr.Field("events", MsgEventsRequired)
	}
	var out []string
	for _, t := range EventTypes {
		if slices.Contains(in, t) {
			out = append(out, t)
		}
	}
	for _, t := range in {
		if !slices.Contains(EventTypes, t) {
			return "", apperr.Field("events", MsgEventUnknown)
		}
	}
	return strings.Join(out, ","), nil
}

func checkDescription(s string) (string, error) {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxDescriptionLen {
		return "", apperr.Field("description", MsgDescriptionTooLong)
	}
	return s, nil
}

// own returns the caller's company's endpoint; another company's is ENOTFOUND.
func (s *service) own(ctx context.Context, p *auth.Principal, id string) (*store.Endpoint, error) {
	e, err := s.store.CompanyEndpoint(ctx, p.CompanyID, id)
	if err != nil {
		return nil, db.Translate(err, MsgEndpointNotFound, "")
	}
	return e, nil
}

func (s *service) Endpoints(ctx context.Context, p *auth.Principal) ([]Endpoint, error) {
	rows, err := s.store.CompanyEndpoints(ctx, p.CompanyID)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]Endpoint, len(rows))
	for i, r := range rows {
		out[i] = endpointDTO(r)
	}
	return out, nil
}

func (s *service) CreateEndpoint(ctx context.Context, p *auth.Principal, req EndpointRequest) (*Endpoint, string, error) {
	u, err := s.guard.checkURL(ctx, req.URL)
	if err != nil {
		return nil, "", err
	}
	evs, err := checkEvents(req.Events)
	if err != nil {
		return nil, "", err
	}
	desc, err := checkDescription(req.Description)
	if err != nil {
		return nil, "", err
	}
	now := s.deps.Clock.Now().UTC()
	row := store.Endpoint{ID: ids.New(), CompanyID: p.CompanyID, UserID: p.UserID, URL: u, Description: desc, Events: evs,
		Secret: newSecret(), Enabled: true, CreatedAt: now, UpdatedAt: now}
	err = db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		// The limit spans rows: concurrent creations take turns.
		if err := db.LockForTx(ctx, s.deps.DB, "webhooks.endpoints:"+p.CompanyID); err != nil {
			return err
		}
		n, err := s.store.CountEndpoints(ctx, p.CompanyID)
		if err != nil {
			return err
		}
		if n >= MaxEndpointsPerCompany {
			return apperr.New(apperr.ECONFLICT, MsgTooManyEndpoints)
		}
		return s.store.Create(ctx, &row)
	})
	if err != nil {
		return nil, "", err
	}
	dto := endpointDTO(row)
	return &dto, row.Secret, nil
}

func (s *service) UpdateEndpoint(ctx context.Context, p *auth.Principal, id string, req EndpointRequest) (*Endpoint, error) {
	e, err := s.own(ctx, p, id)
	if err != nil {
		return nil, err
	}
	cols := map[string]any{"updated_at": s.deps.Clock.Now().UTC()}
	if strings.TrimSpace(req.URL) != e.URL {
		u, err := s.guard.checkURL(ctx, req.URL)
		if err != nil {
			return nil, err
		}
		cols["url"] = u
	}
	evs, err := checkEvents(req.Events)
	if err != nil {
		return nil, err
	}
	desc, err := checkDescription(req.Description)
	if err != nil {
		return nil, err
	}
	cols["events"], cols["description"] = evs, desc
	if req.Enabled != nil && *req.Enabled != e.Enabled {
		cols["enabled"] = *req.Enabled
		if *req.Enabled {
			// A fresh start: the 24 hours of failure count again from the next failure.
			cols["disabled_at"], cols["disabled_reason"], cols["failing_since"] = nil, "", nil
		} else {
			cols["disabled_at"], cols["disabled_reason"] = s.deps.Clock.Now().UTC(), ""
		}
	}
	if err := s.store.UpdateEndpoint(ctx, e.ID, cols); err != nil {
		return nil, apperr.Internal(err)
	}
	e, err = s.own(ctx, p, id)
	if err != nil {
		return nil, err
	}
	dto := endpointDTO(*e)
	return &dto, nil
}

func (s *service) DeleteEndpoint(ctx context.Context, p *auth.Principal, id string) error {
	e, err := s.own(ctx, p, id)
	if err != nil {
		return err
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error { return s.store.DeleteEndpoint(ctx, e.ID) })
}

func (s *service) Secret(ctx context.Context, p *auth.Principal, id string) (string, error) {
	e, err := s.own(ctx, p, id)
	if err != nil {
		return "", err
	}
	return e.Secret, nil
}

// deliveryLogLen is how many deliveries the log shows.
const deliveryLogLen = 50

func (s *service) Deliveries(ctx context.Context, p *auth.Principal, id string) ([]Delivery, error) {
	e, err := s.own(ctx, p, id)
	if err != nil {
		return nil, err
	}
	rows, err := s.store.Deliveries(ctx, e.ID, deliveryLogLen)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	out := make([]Delivery, len(rows))
	for i, r := range rows {
		out[i] = deliveryDTO(r)
	}
	return out, nil
}

func (s *service) Redeliver(ctx context.Context, p *auth.Principal, endpointID, deliveryID string) error {
	e, err := s.own(ctx, p, endpointID)
	if err != nil {
		return err
	}
	if !e.Enabled {
		return apperr.New(apperr.EINVALID, MsgEndpointDisabled)
	}
	d, err := s.store.Delivery(ctx, e.ID, deliveryID)
	if err != nil {
		return db.Translate(err, MsgDeliveryNotFound, "")
	}
	if d.Status == StatusPending {
		return nil // already queued (or being posted)
	}
	now := s.deps.Clock.Now().UTC()
	// A finished delivery has no attempt in flight; it gets a new 24-hour window of retries.
	return s.store.UpdateDelivery(ctx, d.ID, map[string]any{"status": StatusPending, "next_attempt_at": now,
		"expires_at": now.Add(RetryWindow), "updated_at": now})
}

func (s *service) SendTest(ctx context.Context, p *auth.Principal, id string) error {
	e, err := s.own(ctx, p, id)
	if err != nil {
		return err
	}
	if !e.Enabled {
		return apperr.New(apperr.EINVALID, MsgEndpointDisabled)
	}
	return db.Transact(ctx, s.deps.DB, func(ctx context.Context) error {
		return s.deps.Events.Publish(ctx, EventTestRequested, testRequested{EndpointID: e.ID, CompanyID: e.CompanyID})
	})
}

// The HTTP calls that answer a call's outcome with its message.

// list is GET /api/webhooks: the endpoints and the event types they can subscribe to.
func (s *service) list(ctx context.Context, p *auth.Principal) (EndpointsResponse, error) {
	eps, err := s.Endpoints(ctx, p)
	if err != nil {
		return EndpointsResponse{}, err
	}
	return EndpointsResponse{Success: true, Endpoints: eps, EventTypes: EventTypes}, nil
}

// remove is DELETE /api/webhooks/{id}.
func (s *service) remove(ctx context.Context, p *auth.Principal, id string) (MessageResponse, error) {
	if err := s.DeleteEndpoint(ctx, p, id); err != nil {
		return MessageResponse{}, err
	}
	return MessageResponse{Success: true, Message: MsgEndpointDeleted}, nil
}

// revealSecret is GET /api/webhooks/{id}/secret; a moderated session reveals nothing (a credential
// outliving the session).
func (s *service) revealSecret(ctx context.Context, p *auth.Principal, id string) (SecretResponse, error) {
	if err := auth.RefuseModerated(p); err != nil {
		return SecretResponse{}, err
	}
	secret, err := s.Secret(ctx, p, id)
	if err != nil {
		return SecretResponse{}, err
	}
	return SecretResponse{Success: true, Secret: secret}, nil
}

// log is GET /api/webhooks/{id}/deliveries.
func (s *service) log(ctx context.Context, p *auth.Principal, id string) (DeliveriesResponse, error) {
	ds, err := s.Deliveries(ctx, p, id)
	if err != nil {
		return DeliveriesResponse{}, err
	}
	return DeliveriesResponse{Success: true, Deliveries: ds}, nil
}

// test is POST /api/webhooks/{id}/test.
func (s *service) test(ctx context.Context, p *auth.Principal, id string) (MessageResponse, error) {
	if err := s.SendTest(ctx, p, id); err != nil {
		return MessageResponse{}, err
	}
	return MessageResponse{Success: true, Message: MsgTestQueued}, nil
}
