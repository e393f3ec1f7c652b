package audit

import (
	"encoding/json"
	"time"
)

// The admin audit log's list entry, in its own file so that tygo gives the web app these types
// alone (webapp/src/platform/api-types/audit.ts).

// Entry is one admin change as GET /api/admin/audit/ shows it: who (the admin, and the admin acting
// through a moderated sign-in), what (the action), on which object, the object before and after
// (JSON, null when there is none), from which address, and when. The names (the actor's, the
// moderator's, the object's) are read when the list is answered, so they are today's names; an
// object's name is "" when it is not known (a deleted user).
type Entry struct {
	ID             string `json:"id"`
	ActorID        string `json:"actor_id"`
	ActorEmail     string `json:"actor_email"`
	ActorName      string `json:"actor_name"`
	ModeratorID    string `json:"moderator_id"`
	ModeratorEmail string `json:"moderator_email"`
	ModeratorName  string `json:"moderator_name"`
	Action         string `json:"action"`
	ObjectType     string `json:"object_type"`
	ObjectID       string `json:"object_id"`
	// ObjectName is the object's name: the user's or company's current one, else the "name" the
	// change recorded (a campaign, a promo code), else the route of a moderated write.
	ObjectName string          `json:"object_name"`
	Before     json.RawMessage `json:"before" tstype:"unknown"`
	After      json.RawMessage `json:"after" tstype:"unknown"`
	IP         string          `json:"ip"`
	CreatedAt  time.Time       `json:"created_at"`
}
