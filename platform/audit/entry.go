package audit

import (
	"encoding/json"
	"time"
)

// The admin audit log's list entry, in its own file so that tygo gives the web app these types
// alone (webapp/src/platform/api-types/audit.ts).

// Entry is one admin change as GET /api/admin/audit/ shows it: who (the admin, and the admin acting
// through a moderated sign-in), what (the action), on which object, the object before and after
// (JSON, null when there is none), from which address, and when.
type Entry struct {
	ID          string          `json:"id"`
	ActorID     string          `json:"actor_id"`
	ActorEmail  string          `json:"actor_email"`
	ModeratorID string          `json:"moderator_id"`
	Action      string          `json:"action"`
	ObjectType  string          `json:"object_type"`
	ObjectID    string          `json:"object_id"`
	Before      json.RawMessage `json:"before" tstype:"unknown"`
	After       json.RawMessage `json:"after" tstype:"unknown"`
	IP          string          `json:"ip"`
	CreatedAt   time.Time       `json:"created_at"`
}
