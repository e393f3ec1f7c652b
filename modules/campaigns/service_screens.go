package campaigns

import "marquee/platform/dates"

// Delivery from plays (docs/screens.md): what the screens module reads and records through
// campaigns' Service.

// Where a week's delivered figure comes from (Week.DeliverySource).
const (
	DeliverySourceScreen = "screen" // counted plays of a paired screen
	DeliverySourceImport = "import" // a CMS's proof-of-play export
	DeliverySourceAdmin  = "admin"  // typed by an admin (an unpaired face, or an override)
)

// ProofReasonDeviceBatch is the record reason of a screen's signed batch of plays.
const ProofReasonDeviceBatch = "device_batch"

// ProofReasonImport prefixes the record reason of an imported file ("import:<sha256>").
const ProofReasonImport = "import"

// MsgOverrideReason answers an admin's delivery of a week whose figure comes from a screen or an
// import without a reason.
const MsgOverrideReason = "This week's delivery comes from its screen: give a reason to override it."

// AuditWeekDeliveryOverride is the audit action of an admin's override of a screen's figure.
const AuditWeekDeliveryOverride = "campaign_week.delivery_override"

// FaceBooking is one campaign week booked on a face: what a player plays that week.
type FaceBooking struct {
	CampaignID string
	WeekID     string
	FaceID     string
	Week       dates.Date
	CreativeID string
	// Ooh is the week's contracted impressions (the face's weekly estimate when booked).
	Ooh int64
}

// DeviceBatchProof is what a screen signed for one batch of plays: it enters the campaign's
// proof chain with Marquee's signature over it.
type DeviceBatchProof struct {
	ScreenID  string
	PublicKey string // base64 of the 32-byte Ed25519 key
	Message   string // the exact signed message: METHOD\nPATH\nTIMESTAMP\nBODY_SHA256
	Signature string // base64
	BatchHash string // hex SHA-256 of the body
	Plays     int64  // this campaign-week's counted plays in the batch
}

// ScreenWeekToClose is an open week whose figure comes from plays: the caller decides when it
// ends, on its face's own clock (docs/screens.md "Closing a week").
type ScreenWeekToClose struct {
	WeekID string
	FaceID string
	Week   dates.Date // its Monday
}

// ScreenDelivery sets a campaign week's delivered impressions from plays and appends the batch
// to the campaign's proof chain.
type ScreenDelivery struct {
	CampaignID  string
	FaceID      string
	Week        dates.Date
	Impressions int64
	Source      string // DeliverySourceScreen or DeliverySourceImport
	Device      *DeviceBatchProof
	// ImportHash is the SHA-256 of an imported file (Source import, no Device): the record's
	// reason is "import:" and the hash, signed by Marquee only.
	ImportHash string
}
