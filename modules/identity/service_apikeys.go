package identity

import "time"

// API keys (docs/api.md "Authentication"). A company's users make keys in Settings → API;
// a key calls /api/v1 as a regular user of the company, with its scope's limits.

// APIKey is a key as its company (and an admin) sees it: never the key itself, which is shown
// once, at creation (CreatedAPIKey.Secret).
type APIKey struct {
	ID          string     `json:"id"`
	Company     string     `json:"company"`
	CompanyName string     `json:"company_name,omitempty"` // the admin list's
	Name        string     `json:"name"`
	Scope       string     `json:"scope"`  // "read" or "read-write"
	Prefix      string     `json:"prefix"` // the key's first characters: "mq_live_ab12"
	CreatedBy   string     `json:"created_by"`
	CreatedAt   time.Time  `json:"created_at"`
	LastUsedAt  *time.Time `json:"last_used_at"`
	LastUsedIP  string     `json:"last_used_ip"`
	RevokedAt   *time.Time `json:"revoked_at"`
}

// CreateAPIKeyRequest is POST /api/api-keys/.
type CreateAPIKeyRequest struct {
	Name  string `json:"name" validate:"singleline"`
	Scope string `json:"scope" validate:"singleline"`
}

// CreatedAPIKey answers POST /api/api-keys/: Secret is the key, shown this once.
type CreatedAPIKey struct {
	Success bool   `json:"success"`
	Key     APIKey `json:"key"`
	Secret  string `json:"secret"`
}

// API key messages.
const (
	MsgAPIKeyName     = "Give the key a name (at most 100 characters)." // #nosec G101 -- a user-facing message, not a credential
	MsgAPIKeyScope    = "Choose a scope: read, or read-write."          // #nosec G101 -- a user-facing message, not a credential
	MsgAPIKeyTooMany  = "A company can have at most 20 live API keys. Revoke one first."
	MsgAPIKeyNotFound = "This API key does not exist or is already revoked." // #nosec G101 -- a user-facing message, not a credential
	MsgAPIKeyRevoked  = "API key revoked."                                   // #nosec G101 -- a user-facing message, not a credential
	MaxLiveAPIKeys    = 20
)

// Audit actions of API keys.
const (
	AuditAPIKeyRevoke = "api_key.revoke" // #nosec G101 -- an audit action name, not a credential
	AuditObjectAPIKey = "api_key"
)
