package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"marquee/modules/billing"
	"marquee/modules/campaigns"
	"marquee/modules/reports"
	"marquee/modules/webhooks/internal/store"
	"marquee/platform/dates"
	"marquee/platform/events"
	"marquee/platform/ids"
	"marquee/platform/money"
)

// source turns one source event into a webhook: its company, its type (or "" to drop it) and its
// data. The data names only the company's own objects and never a secret.
type source func(e events.Event) (companyID, typ string, data any, err error)

// The data of each webhook type (docs/api.md "Webhooks").
type (
	campaignData struct {
		CampaignID string `json:"campaign_id"`
		Status     string `json:"status"`
	}
	completedData struct {
		CampaignID string      `json:"campaign_id"`
		Status     string      `json:"status"`
		TotalCost  money.Cents `json:"total_cost"`
	}
	paymentData struct {
		CampaignID    string      `json:"campaign_id"`
		TransactionID string      `json:"transaction_id"`
		Week          *dates.Date `json:"week"`
		Amount        money.Cents `json:"amount"`
		Message       string      `json:"message"`
	}
	weekData struct {
		CampaignID  string     `json:"campaign_id"`
		WeekID      string     `json:"week_id"`
		StartAt     dates.Date `json:"start_at"`
		Impressions int64      `json:"impressions"`
	}
	proofData struct {
		CampaignID string `json:"campaign_id"`
		WeekID     string `json:"week_id"`
		Count      int    `json:"count"`
	}
	reportData struct {
		ReportID   string `json:"report_id"`
		CampaignID string `json:"campaign_id"`
		Name       string `json:"name"`
		Source     string `json:"source"`
	}
	makeGoodData struct {
		MakeGoodID string      `json:"make_good_id"`
		CampaignID string      `json:"campaign_id"`
		WeekID     string      `json:"week_id"`
		Credit     money.Cents `json:"credit"`
	}
	testData struct {
		EndpointID string `json:"endpoint_id"`
		Message    string `json:"message"`
	}
)

// testRequested is the payload of EventTestRequested.
type testRequested struct {
	EndpointID string `json:"endpoint_id"`
	CompanyID  string `json:"company_id"`
}

func decode[T any](e events.Event) (T, error) {
	var v T
	err := json.Unmarshal(e.Payload, &v)
	if err != nil {
		err = fmt.Errorf("webhooks: decode %s: %w", e.Name, err)
	}
	return v, err
}

// subscribe wires every source event to the fan-out.
func (s *service) subscribe() {
	status := func(typ string) source {
		return func(e events.Event) (string, string, any, error) {
			p, err := decode[campaigns.CampaignStatusChanged](e)
			return p.CompanyID, typ, campaignData{CampaignID: p.CampaignID, Status: p.Status}, err
		}
	}
	sources := map[string]source{
		campaigns.EventCampaignActivated: status(TypeCampaignActivated),
		campaigns.EventCampaignPaused:    status(TypeCampaignPaused),
		campaigns.EventCampaignCompleted: func(e events.Event) (string, string, any, error) {
			p, err := decode[campaigns.CampaignCompleted](e)
			return p.CompanyID, TypeCampaignCompleted, completedData{CampaignID: p.CampaignID, Status: "completed", TotalCost: p.TotalCost}, err
		},
		billing.EventChargeSettled: func(e events.Event) (string, string, any, error) {
			p, err := decode[billing.ChargeSettled](e)
			if err != nil || p.Status != billing.StatusFailed {
				return "", "", nil, err // a success is not a webhook
			}
			return p.CompanyID, TypePaymentFailed, paymentData{CampaignID: p.CampaignRef, TransactionID: p.TransactionID,
				Week: p.Week, Amount: p.Amount, Message: p.Message}, nil
		},
		campaigns.EventWeekDelivered: func(e events.Event) (string, string, any, error) {
			p, err := decode[campaigns.WeekDelivered](e)
			return p.CompanyID, TypeWeekDelivered, weekData{CampaignID: p.CampaignID, WeekID: p.WeekID, StartAt: p.StartAt, Impressions: p.Impressions}, err
		},
		campaigns.EventProofsAdded: func(e events.Event) (string, string, any, error) {
			p, err := decode[campaigns.ProofsAdded](e)
			return p.CompanyID, TypeProofAdded, proofData{CampaignID: p.CampaignID, WeekID: p.WeekID, Count: p.Count}, err
		},
		reports.EventReportReady: func(e events.Event) (string, string, any, error) {
			p, err := decode[reports.ReportReady](e)
			return p.CompanyID, TypeReportReady, reportData{ReportID: p.ReportID, CampaignID: p.CampaignID, Name: p.Name, Source: p.Source}, err
		},
		campaigns.EventMakeGoodGranted: func(e events.Event) (string, string, any, error) {
			p, err := decode[campaigns.MakeGoodGrantedEvent](e)
			return p.CompanyID, TypeMakeGoodGranted, makeGoodData{MakeGoodID: p.MakeGoodID, CampaignID: p.CampaignID, WeekID: p.WeekID,
				Credit: money.Cents(p.CreditCents)}, err
		},
	}
	for name, src := range sources {
		s.deps.Events.Subscribe(name, func(ctx context.Context, e events.Event) error { return s.fanOut(ctx, e, src, "") })
	}
	s.deps.Events.Subscribe(EventTestRequested, func(ctx context.Context, e events.Event) error {
		p, err := decode[testRequested](e)
		if err != nil {
			return err
		}
		return s.fanOut(ctx, e, func(events.Event) (string, string, any, error) {
			return p.CompanyID, TypeTest, testData{EndpointID: p.EndpointID, Message: "A test event from Marquee."}, nil
		}, p.EndpointID)
	})
}

// fanOut adds a delivery of the event to every enabled endpoint of the company subscribed to its
// type (or to the one endpoint onlyEndpoint), in the event's transaction: the deliveries exist
// exactly when the event is marked processed, and a repeat adds nothing (unique event x endpoint).
func (s *service) fanOut(ctx context.Context, e events.Event, src source, onlyEndpoint string) error {
	companyID, typ, data, err := src(e)
	if err != nil || typ == "" || companyID == "" {
		return err
	}
	eps, err := s.store.EnabledEndpoints(ctx, companyID)
	if err != nil {
		return err
	}
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	eventID := "evt_" + e.ID
	payload, err := json.Marshal(Payload{ID: eventID, Type: typ, Created: e.CreatedAt.Unix(), Data: body})
	if err != nil {
		return err
	}
	now := s.deps.Clock.Now().UTC()
	var rows []store.Delivery
	for _, ep := range eps {
		if onlyEndpoint != "" && ep.ID != onlyEndpoint {
			continue
		}
		if onlyEndpoint == "" && !slices.Contains(splitEvents(ep.Events), typ) {
			continue
		}
		rows = append(rows, store.Delivery{ID: ids.New(), EndpointID: ep.ID, CompanyID: companyID, EventID: eventID, EventType: typ,
			Body: string(payload), Status: StatusPending, NextAttemptAt: now, ExpiresAt: now.Add(RetryWindow), CreatedAt: now, UpdatedAt: now})
	}
	return s.store.AddDeliveries(ctx, rows)
}

func splitEvents(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
