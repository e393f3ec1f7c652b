package screens

import (
	"context"
	"time"

	"marquee/platform/auth"
	"marquee/platform/dates"
)

// Player protocol v1 (docs/screens.md): its limits and messages.
const (
	// Protocol is the protocol version a pairing answers.
	Protocol = 1
	// MaxBodyBytes is the largest body of a device call (a batch of plays).
	MaxBodyBytes = 256 << 10
	// MaxPlays is the most plays one batch may carry.
	MaxPlays = 1000
	// ClockSkewSeconds is how far a request's timestamp, or a play's start in the future, may be
	// from the server's clock.
	ClockSkewSeconds = 300
	// BackfillDays is how old a play may be and still count.
	BackfillDays = 14
	// CodeLifeHours is how long a pairing code is valid.
	CodeLifeHours = 24
	// DefaultSlotSeconds and DefaultLoopSeconds are a face's loop when locations has none.
	DefaultSlotSeconds = 8
	DefaultLoopSeconds = 64
)

// Flags of a play that is stored but not counted.
const (
	FlagTooOld          = "too_old"
	FlagInFuture        = "in_future"
	FlagNotBooked       = "not_booked"
	FlagUnknownCreative = "unknown_creative"
	// FlagOutsideHours is a play that starts outside its face's operating hours (in its zone).
	FlagOutsideHours = "outside_hours"
)

// Screen statuses and health.
const (
	StatusActive  = "active"
	StatusRevoked = "revoked"

	HealthOnline    = "online"
	HealthOffline   = "offline"
	HealthNeverSeen = "never_seen"
)

// Messages.
const (
	MsgBadCode       = "This pairing code is unknown, used or expired."
	MsgBadPublicKey  = "The public key must be the base64 of a 32-byte Ed25519 key."
	MsgDeviceAuth    = "This device call is not signed by a paired screen."
	MsgStaleRequest  = "The request's timestamp is more than 300 seconds from the server's clock."
	MsgFaceNotFound  = "No face has this id."
	MsgScreenMissing = "No screen has this id."
	MsgTooManyPlays  = "A batch carries at most 1000 plays."
	MsgPairRateLimit = "Too many pairing attempts. Please wait and try again."
)

// AuditScreenRevoke and AuditPairingCode are the audit actions of the admin calls.
const (
	AuditScreenRevoke = "screen.revoke"
	AuditPairingCode  = "screen.pairing_code"
)

// PairingCodeRequest is POST /api/admin/screens/pairing-codes.
type PairingCodeRequest struct {
	FaceID string `json:"face_id" validate:"singleline"`
}

// PairingCode is a new pairing code: shown once, stored hashed.
type PairingCode struct {
	Code      string    `json:"code"`
	FaceID    string    `json:"face_id"`
	ExpiresAt time.Time `json:"expires_at"`
}

// PairRequest is POST /api/device/pair.
type PairRequest struct {
	Code       string `json:"code" validate:"singleline"`
	PublicKey  string `json:"public_key" validate:"singleline"`
	AppVersion string `json:"app_version" validate:"singleline"`
}

// PairResult answers a pairing.
type PairResult struct {
	ScreenID string `json:"screen_id"`
	FaceID   string `json:"face_id"`
	Protocol int    `json:"protocol"`
}

// Screen is a paired player as the admin Screens page shows it. Health is online (heard in the
// last OnlineWindow), offline or never_seen; PlaysToday are its face's counted plays since
// midnight in the face's time zone, against ExpectedToday (the loop's plays so far today, times
// the face's bookings this week).
type Screen struct {
	ID                string     `json:"id"`
	FaceID            string     `json:"face_id"`
	Location          string     `json:"location"`
	Lat               float64    `json:"lat"`
	Lng               float64    `json:"lng"`
	Status            string     `json:"status"`
	Health            string     `json:"health"`
	PairedAt          time.Time  `json:"paired_at"`
	LastSeenAt        *time.Time `json:"last_seen_at"`
	AppVersion        string     `json:"app_version"`
	FreeDiskBytes     int64      `json:"free_disk_bytes"`
	CurrentCreativeID string     `json:"current_creative_id"`
	LastError         string     `json:"last_error"`
	PlaysToday        int64      `json:"plays_today"`
	ExpectedToday     int64      `json:"expected_today"`
}

// ScreenList answers GET /api/admin/screens.
type ScreenList struct {
	Items []Screen `json:"items"`
	Total int      `json:"total"`
}

// Hours are a face's operating hours, HH:MM in its time zone ("24:00" is midnight at the end).
type Hours struct {
	Open  string `json:"open"`
	Close string `json:"close"`
}

// ScheduleItem is a creative booked on the face for a week: its campaign, the SHA-256 of its
// file, and a download URL valid until ExpiresAt.
type ScheduleItem struct {
	CampaignID string    `json:"campaign_id"`
	CreativeID string    `json:"creative_id"`
	SHA256     string    `json:"sha256"`
	URL        string    `json:"url"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// ScheduleWeek is one week of a schedule (items empty when nothing is booked).
type ScheduleWeek struct {
	WeekStart dates.Date     `json:"week_start"`
	Items     []ScheduleItem `json:"items"`
}

// Schedule answers GET /api/device/schedule.
type Schedule struct {
	ScreenID    string         `json:"screen_id"`
	FaceID      string         `json:"face_id"`
	Timezone    string         `json:"timezone"`
	SlotSeconds int            `json:"slot_seconds"`
	LoopSeconds int            `json:"loop_seconds"`
	Hours       Hours          `json:"hours"`
	Weeks       []ScheduleWeek `json:"weeks"`
}

// PlayIn is one play of a batch.
type PlayIn struct {
	Seq        int64     `json:"seq"`
	CampaignID string    `json:"campaign_id" validate:"singleline"`
	CreativeID string    `json:"creative_id" validate:"singleline"`
	StartedAt  time.Time `json:"started_at"`
	DurationMs int64     `json:"duration_ms"`
}

// PlaysBatch is POST /api/device/plays.
type PlaysBatch struct {
	Plays []PlayIn `json:"plays" validate:"dive"`
}

// FlaggedPlay is a play stored but not counted, and why.
type FlaggedPlay struct {
	Seq    int64  `json:"seq"`
	Reason string `json:"reason"`
}

// PlaysResult answers a batch: new counted plays, plays already stored, new flagged plays, and
// the SHA-256 of the body (what entered the proof chain).
type PlaysResult struct {
	Accepted   int           `json:"accepted"`
	Duplicates int           `json:"duplicates"`
	Flagged    []FlaggedPlay `json:"flagged"`
	BatchHash  string        `json:"batch_hash"`
}

// Heartbeat is POST /api/device/heartbeat.
type Heartbeat struct {
	AppVersion        string `json:"app_version" validate:"singleline"`
	FreeDiskBytes     int64  `json:"free_disk_bytes"`
	CurrentCreativeID string `json:"current_creative_id" validate:"singleline"`
	LastError         string `json:"last_error" validate:"singleline"`
}

// Device is the signed caller of a device call, as the DeviceAuth port found it.
type Device struct {
	ScreenID  string
	FaceID    string
	PublicKey string // base64
	Message   string // the signed message
	Signature string // base64
	BodyHash  string // hex SHA-256 of the body
}

// Service is the screens module's public API.
type Service interface {
	// CreatePairingCode makes a single-use code that pairs a player with the face, valid for
	// CodeLife. ENOTFOUND for an unknown face.
	CreatePairingCode(ctx context.Context, p *auth.Principal, req PairingCodeRequest) (*PairingCode, error)
	// Pair pairs a player: the code is used once. EUNAUTHORIZED for an unknown, used or expired
	// code or a malformed key; nothing is stored then.
	Pair(ctx context.Context, req PairRequest) (*PairResult, error)
	// RevokeScreen revokes a screen: its calls answer 401 from then on. ENOTFOUND for none.
	RevokeScreen(ctx context.Context, p *auth.Principal, id string) (*Screen, error)
	// ListScreens returns every screen with its health and today's plays.
	ListScreens(ctx context.Context, p *auth.Principal) (*ScreenList, error)
	// ScheduleOf returns the device's face's schedule for weeks from `from`.
	ScheduleOf(ctx context.Context, d *Device, from dates.Date, weeks int) (*Schedule, error)
	// RecordPlays stores a batch of plays (idempotent by screen and seq), updates the hourly
	// rollups and the face-weeks' delivery, and appends the batch to the proof chains, in one
	// transaction.
	RecordPlays(ctx context.Context, d *Device, req PlaysBatch) (*PlaysResult, error)
	// RecordHeartbeat stores the device's last heartbeat.
	RecordHeartbeat(ctx context.Context, d *Device, req Heartbeat) error
	// Imports of a CMS's proof-of-play export (service_imports.go, imports.go): ImportFile reads
	// an export and counts its accepted rows as plays (source import) in one transaction, the same
	// file again answering its first report; the others list imports and read or set mappings.
	ImportFile(ctx context.Context, p *auth.Principal, up ImportUpload) (*ImportReport, error)
	ListImports(ctx context.Context, p *auth.Principal) (*ImportList, error)
	ImportMappings(ctx context.Context, p *auth.Principal) (*Mappings, error)
	SetImportMappings(ctx context.Context, p *auth.Principal, req Mappings) (*Mappings, error)
}
