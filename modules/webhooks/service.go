// Package webhooks lets a company register HTTPS endpoints that receive signed JSON events
// (docs/api.md "Webhooks"). Source events come from the modules below
// through platform/events; each (event, endpoint) becomes a delivery row that a job under the
// leader lock posts, at least once, with exponential retries for 24 hours.
package webhooks

import (
	"context"
	"encoding/json"
	"time"

	"marquee/platform/auth"
)

// Webhook event types, the `type` of a payload (docs/api.md "Webhooks").
const (
	TypeCampaignActivated = "campaign.activated"
	TypeCampaignPaused    = "campaign.paused"
	TypeCampaignCompleted = "campaign.completed"
	TypePaymentFailed     = "payment.failed"
	TypeWeekDelivered     = "week.delivered"
	TypeProofAdded        = "proof.added"
	TypeReportReady       = "report.ready"
	TypeMakeGoodGranted   = "make_good.granted"
	// TypeTest is sent by "Send test event" to one endpoint only; endpoints need not subscribe.
	TypeTest = "webhook.test"
)

// EventTypes are the types an endpoint can subscribe to, in the order the panel lists them.
var EventTypes = []string{TypeCampaignActivated, TypeCampaignPaused, TypeCampaignCompleted, TypePaymentFailed,
	TypeWeekDelivered, TypeProofAdded, TypeReportReady, TypeMakeGoodGranted}

// EventTestRequested is published by "Send test event" (so the test delivery, too, goes through
// the events outbox).
const EventTestRequested = "webhooks.test_requested"

// Delivery statuses.
const (
	StatusPending   = "pending"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
)

// Limits and the delivery schedule (docs/api.md "Retries").
const (
	MaxEndpointsPerCompany = 10
	MaxURLLen              = 500
	MaxDescriptionLen      = 200
	// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>".
	SignatureHeader = "Marquee-Signature"
	// ResponseExcerptLen is how much of a receiver's answer the log keeps; ResponseReadCap how much
	// is read at all.
	ResponseExcerptLen = 500
	ResponseReadCap    = 64 << 10
)

// Messages.
const (
	MsgEndpointNotFound   = "Webhook endpoint not found."
	MsgDeliveryNotFound   = "Delivery not found."
	MsgURLInvalid         = "Please enter a valid URL, such as https://example.com/hooks."
	MsgURLHTTPS           = "The URL must use https."
	MsgURLPrivate         = "The URL must point at a public internet address, not a private, loopback, link-local or metadata one."
	MsgURLUnresolvable    = "The URL's host could not be resolved."
	MsgEventsRequired     = "Please choose at least one event."
	MsgEventUnknown       = "Unknown event type."
	MsgDescriptionTooLong = "The description can be at most 200 characters."
	MsgTooManyEndpoints   = "A company can have at most 10 webhook endpoints."
	MsgEndpointCreated    = "The webhook endpoint has been added."
	MsgEndpointUpdated    = "The webhook endpoint has been updated."
	MsgEndpointDeleted    = "The webhook endpoint has been deleted."
	MsgRedeliverQueued    = "The delivery has been queued again."
	MsgTestQueued         = "A test event has been queued."
	MsgEndpointDisabled   = "This endpoint is disabled: enable it first."
)

// Endpoint is a registered receiver. The signing secret is not part of it (EndpointSecret).
type Endpoint struct {
	ID          string     `json:"id"`
	URL         string     `json:"url"`
	Description string     `json:"description"`
	Events      []string   `json:"events"`
	Enabled     bool       `json:"enabled"`
	DisabledAt  *time.Time `json:"disabled_at"`
	// DisabledReason says why the endpoint was turned off ("" when on, or turned off by hand).
	DisabledReason string `json:"disabled_reason"`
	// FailingSince is when the current run of failed deliveries began, or null.
	FailingSince *time.Time `json:"failing_since"`
	CreatedAt    time.Time  `json:"created_at"`
}

// Delivery is one (event, endpoint) pair in the log.
type Delivery struct {
	ID            string     `json:"id"`
	EventID       string     `json:"event_id"`
	EventType     string     `json:"event_type"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	LastStatus    int        `json:"last_status"`
	LastResponse  string     `json:"last_response"`
	LastError     string     `json:"last_error"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	DeliveredAt   *time.Time `json:"delivered_at"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
}

// EndpointRequest creates or changes an endpoint. Enabled is only read on update (nil keeps it).
type EndpointRequest struct {
	URL         string   `json:"url" validate:"singleline"`
	Description string   `json:"description" validate:"singleline"`
	Events      []string `json:"events" validate:"dive,singleline"`
	Enabled     *bool    `json:"enabled"`
}

// EndpointsResponse is GET /api/webhooks: the company's endpoints and the event types.
type EndpointsResponse struct {
	Success    bool       `json:"success"`
	Endpoints  []Endpoint `json:"endpoints"`
	EventTypes []string   `json:"event_types"`
}

// EndpointResponse answers a create or update. Secret is set on create only.
type EndpointResponse struct {
	Success  bool     `json:"success"`
	Message  string   `json:"message"`
	Endpoint Endpoint `json:"endpoint"`
	Secret   string   `json:"secret,omitempty"`
}

// SecretResponse is GET /api/webhooks/:id/secret (revealable: the secret must be kept to sign).
type SecretResponse struct {
	Success bool   `json:"success"`
	Secret  string `json:"secret"`
}

// DeliveriesResponse is the endpoint's latest deliveries, newest first.
type DeliveriesResponse struct {
	Success    bool       `json:"success"`
	Deliveries []Delivery `json:"deliveries"`
}

// MessageResponse answers a change with a message.
type MessageResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// Payload is the body of every delivery: a stable shape, `data` depending on `type`.
type Payload struct {
	ID      string          `json:"id"`
	Type    string          `json:"type"`
	Created int64           `json:"created"`
	Data    json.RawMessage `json:"data"`
}

// Service is the module's API. Every method is scoped to the principal's company; another
// company's endpoint answers ENOTFOUND.
type Service interface {
	// Endpoints lists the company's endpoints.
	Endpoints(ctx context.Context, p *auth.Principal) ([]Endpoint, error)
	// CreateEndpoint registers an endpoint and returns it with its new secret. EINVALID for a bad
	// or refused URL (SSRF rules) or events; ECONFLICT over MaxEndpointsPerCompany.
	CreateEndpoint(ctx context.Context, p *auth.Principal, req EndpointRequest) (*Endpoint, string, error)
	// UpdateEndpoint changes an endpoint (enabling it clears its failure run). ENOTFOUND, EINVALID.
	UpdateEndpoint(ctx context.Context, p *auth.Principal, id string, req EndpointRequest) (*Endpoint, error)
	// DeleteEndpoint removes an endpoint and its deliveries. ENOTFOUND.
	DeleteEndpoint(ctx context.Context, p *auth.Principal, id string) error
	// Secret reveals the endpoint's signing secret. ENOTFOUND.
	Secret(ctx context.Context, p *auth.Principal, id string) (string, error)
	// Deliveries lists the endpoint's latest 50 deliveries. ENOTFOUND.
	Deliveries(ctx context.Context, p *auth.Principal, id string) ([]Delivery, error)
	// Redeliver queues a delivery again now, for another 24 hours. ENOTFOUND; EINVALID when the
	// endpoint is disabled.
	Redeliver(ctx context.Context, p *auth.Principal, endpointID, deliveryID string) error
	// SendTest publishes a webhook.test event for one endpoint. ENOTFOUND; EINVALID when disabled.
	SendTest(ctx context.Context, p *auth.Principal, id string) error
}
