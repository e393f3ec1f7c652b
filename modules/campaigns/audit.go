package campaigns

import (
	"context"

	"marquee/platform/audit"
	"marquee/platform/auth"
)

// Auditor records an admin change in the caller's transaction (platform/audit.Log).
type Auditor interface {
	Record(ctx context.Context, ch audit.Change) error
}

// Audit actions of the admin campaign screens (docs/identity.md "Audit log").
const (
	AuditCampaignUpdate   = "campaign.update"
	AuditCampaignStatus   = "campaign.status"
	AuditCampaignDelete   = "campaign.delete"
	AuditCampaignWeeks    = "campaign.weeks"
	AuditCampaignCreative = "campaign.creative"
	AuditWeekDelivery     = "campaign_week.delivery"
	AuditWeekProofs       = "campaign_week.proofs"
	AuditProofDelete      = "campaign_week.proof_delete"
)

// auditAdmin writes a change made by an admin, or in a moderated session, to the audit log in the
// caller's transaction (DESIGN.md §1.12); a user's own change is not an admin change.
func (s *service) auditAdmin(ctx context.Context, p *auth.Principal, action, objectType, id string, before, after any) error {
	if p == nil || (!p.IsAdmin() && p.ModeratorID == "") {
		return nil
	}
	return s.deps.Audit.Record(ctx, audit.Change{Action: action, ObjectType: objectType, ObjectID: id, Before: before, After: after})
}
