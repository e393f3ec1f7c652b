// Package audit is the admin audit log (DESIGN.md §1.12): every admin change of data, and every
// moderated sign-in, is recorded with who made it, what it was, on which object, the object before
// and after, and from which address. Record writes through the transaction carried by ctx (like the
// mail and event outboxes), and refuses to write outside one, so an entry exists exactly when its
// change commits.
package audit

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/auth"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/httpx"
	"marquee/platform/ids"
	"marquee/platform/pagination"
)

// row is a row of audit_entries.
type row struct {
	ID          string `gorm:"primaryKey"`
	ActorID     string
	ActorEmail  string
	ModeratorID string
	Action      string
	ObjectType  string
	ObjectID    string
	Before      string
	After       string
	IP          string
	CreatedAt   time.Time
}

func (row) TableName() string { return "audit_entries" }

// entries0001 is the table as migration audit-0001 created it; a snapshot, so that later changes
// to row never change what this migration does. The indexes serve the list's filters, newest
// first.
type entries0001 struct {
	ID          string    `gorm:"primaryKey;size:36"`
	ActorID     string    `gorm:"size:36;not null;index:audit_actor_created,priority:1"`
	ActorEmail  string    `gorm:"size:254;not null"`
	ModeratorID string    `gorm:"size:36;not null;default:''"`
	Action      string    `gorm:"size:64;not null;index:audit_action_created,priority:1"`
	ObjectType  string    `gorm:"size:32;not null;index:audit_object,priority:1"`
	ObjectID    string    `gorm:"size:64;not null;index:audit_object,priority:2"`
	Before      string    `gorm:"type:text;not null"`
	After       string    `gorm:"type:text;not null"`
	IP          string    `gorm:"size:64;not null;default:''"`
	CreatedAt   time.Time `gorm:"not null;index:audit_created;index:audit_actor_created,priority:2;index:audit_action_created,priority:2"`
}

func (entries0001) TableName() string { return "audit_entries" }

// Migrations create audit_entries.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID:       "audit-0001-entries",
		Migrate:  func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&entries0001{}) },
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("audit_entries") },
	}}
}

// Change is one admin change to record.
type Change struct {
	Action     string // e.g. "user.disable"
	ObjectType string // e.g. "user"
	ObjectID   string
	Before     any // marshalled to JSON; nil for none
	After      any
}

// ErrNoTransaction is returned by Record outside a transaction: an entry must commit or roll back
// with its change.
var ErrNoTransaction = errors.New("audit: Record needs the caller's transaction")

// Log records and lists audit entries.
type Log struct {
	gdb *gorm.DB
	clk clock.Clock
}

// New returns the log on gdb.
func New(gdb *gorm.DB, clk clock.Clock) *Log {
	if gdb == nil || clk == nil {
		panic("audit: New needs a database and a clock")
	}
	return &Log{gdb: gdb, clk: clk}
}

// Record writes ch in the transaction carried by ctx, naming the principal of ctx (the request's
// signed-in admin, or the admin behind a moderated session) and its address as the actor; without
// a principal, the actor is SystemActor.
func (l *Log) Record(ctx context.Context, ch Change) error {
	if !db.InTx(ctx) {
		return ErrNoTransaction
	}
	p := auth.FromContext(ctx)
	if p == nil {
		// The command line and the demo seed run without a principal.
		return l.RecordAs(ctx, Actor{Email: SystemActor}, ch)
	}
	return l.RecordAs(ctx, Actor{ID: p.UserID, Email: p.Email, ModeratorID: p.ModeratorID, IP: p.IP}, ch)
}

// SystemActor names the actor of a change made outside a request (the command line, the seed).
const SystemActor = "system"

// Actor is who makes a change.
type Actor struct {
	ID, Email, ModeratorID, IP string
}

// RecordAs is Record with an explicit actor (a moderated sign-in is recorded in the name of the
// admin, before the request has their new principal).
func (l *Log) RecordAs(ctx context.Context, a Actor, ch Change) error {
	if !db.InTx(ctx) {
		return ErrNoTransaction
	}
	before, err := marshal(ch.Before)
	if err != nil {
		return err
	}
	after, err := marshal(ch.After)
	if err != nil {
		return err
	}
	r := row{ID: ids.New(), ActorID: a.ID, ActorEmail: a.Email, ModeratorID: a.ModeratorID, Action: ch.Action,
		ObjectType: ch.ObjectType, ObjectID: ch.ObjectID, Before: before, After: after, IP: truncate(a.IP, 64),
		CreatedAt: l.clk.Now()}
	return db.Conn(ctx, l.gdb).Create(&r).Error
}

func marshal(v any) (string, error) {
	if v == nil {
		return "null", nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// Filter selects entries for the admin list. Empty fields do not filter; From and To are
// inclusive instants.
type Filter struct {
	Actor      string // an actor's id, or part of their email
	Action     string
	ObjectType string
	ObjectID   string
	From, To   *time.Time
}

// ListSpec is the audit list's paging (B §9 admin lists: 50, 75, 100, All), newest first.
var ListSpec = pagination.Spec{PageSizes: []int{50, 75, 100, 0}, DefaultSize: 50,
	Sortable:    map[string]string{"created_at": "created_at", "action": "action", "actor_email": "actor_email", "object_type": "object_type"},
	DefaultSort: "-created_at"}

// List returns a page of entries matching f and the search text p.Q (in the actor's email, the
// action, the object's type or id).
func (l *Log) List(ctx context.Context, f Filter, p pagination.Params) (pagination.Page[Entry], error) {
	q := db.Conn(ctx, l.gdb).Model(&row{})
	if f.Actor != "" {
		if ids.Valid(f.Actor) {
			q = q.Where("actor_id = ? OR moderator_id = ?", f.Actor, f.Actor)
		} else {
			q = q.Where(db.Contains("LOWER(actor_email)", strings.ToLower(f.Actor)))
		}
	}
	if f.Action != "" {
		q = q.Where("action = ?", f.Action)
	}
	if f.ObjectType != "" {
		q = q.Where("object_type = ?", f.ObjectType)
	}
	if f.ObjectID != "" {
		q = q.Where("object_id = ?", f.ObjectID)
	}
	if f.From != nil {
		q = q.Where("created_at >= ?", *f.From)
	}
	if f.To != nil {
		q = q.Where("created_at <= ?", *f.To)
	}
	if p.Q != "" {
		text := strings.ToLower(p.Q)
		actor, like := db.Contains("LOWER(actor_email)", text)
		action, _ := db.Contains("action", text)
		object, _ := db.Contains("object_type", text)
		id, _ := db.Contains("object_id", text)
		q = q.Where("("+actor+" OR "+action+" OR "+object+" OR "+id+")", like, like, like, like)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return pagination.Page[Entry]{}, apperr.Internal(err)
	}
	var rows []row
	if err := p.Apply(q).Find(&rows).Error; err != nil {
		return pagination.Page[Entry]{}, apperr.Internal(err)
	}
	out := make([]Entry, len(rows))
	for i, r := range rows {
		out[i] = Entry{ID: r.ID, ActorID: r.ActorID, ActorEmail: r.ActorEmail, ModeratorID: r.ModeratorID, Action: r.Action,
			ObjectType: r.ObjectType, ObjectID: r.ObjectID, ObjectName: recordedName(r), Before: json.RawMessage(r.Before),
			After: json.RawMessage(r.After), IP: r.IP, CreatedAt: r.CreatedAt}
	}
	return pagination.Envelope(out, total, p), nil
}

// recordedName is the name an entry recorded of its object: the route of a moderated write, else
// the "name" (or "email", or "code") of the object after the change, or before it.
func recordedName(r row) string {
	if r.ObjectType == ObjectRequest {
		var w ModeratedWrite
		if json.Unmarshal([]byte(r.After), &w) == nil && w.Path != "" {
			return w.Method + " " + w.Path
		}
		return r.ObjectID
	}
	for _, raw := range []string{r.After, r.Before} {
		var m map[string]any
		if json.Unmarshal([]byte(raw), &m) != nil {
			continue
		}
		for _, k := range []string{"name", "email", "code"} {
			if v, ok := m[k].(string); ok && v != "" {
				return v
			}
		}
	}
	return ""
}

// ActionModeratedWrite is the entry of every write request made in a moderated session (an admin
// signed in as a user): the module's own entries say what changed; this one guarantees that no
// write of a moderated session goes unrecorded (DESIGN.md §1.12).
const ActionModeratedWrite = "moderate.write"

// ObjectRequest is the object type of ActionModeratedWrite: the route called.
const ObjectRequest = "request"

// ModeratedWrite is the After of an ActionModeratedWrite entry.
type ModeratedWrite struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Status int    `json:"status"`
}

// ModeratedWrites records every write request (not GET, HEAD or OPTIONS) of a moderated session
// before its handler runs, in the moderator's name, and fills in the answer's status after it. An
// entry that cannot be written refuses the request (503): a moderated write is never unrecorded.
// Routes listed in skip record their own entry (the sign-out).
func ModeratedWrites(l *Log, skip ...string) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := auth.Current(c)
		if p == nil || p.ModeratorID == "" || slices.Contains(skip, c.FullPath()) {
			c.Next()
			return
		}
		switch c.Request.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			c.Next()
			return
		}
		ctx := c.Request.Context()
		id := ids.New()
		w := ModeratedWrite{Method: c.Request.Method, Path: c.Request.URL.Path}
		err := db.Transact(ctx, l.gdb, func(ctx context.Context) error {
			after, err := marshal(w)
			if err != nil {
				return err
			}
			return db.Conn(ctx, l.gdb).Create(&row{ID: id, ActorID: p.UserID, ActorEmail: p.Email, ModeratorID: p.ModeratorID,
				Action: ActionModeratedWrite, ObjectType: ObjectRequest, ObjectID: truncate(c.FullPath(), 64), Before: "null",
				After: after, IP: truncate(p.IP, 64), CreatedAt: l.clk.Now()}).Error
		})
		if err != nil {
			httpx.Logger(c).Error("audit: record a moderated write", "err", err.Error())
			httpx.Fail(c, apperr.EUNAVAILABLE, apperr.MsgUnavailable)
			return
		}
		c.Next()
		w.Status = c.Writer.Status()
		after, _ := marshal(w)
		if err := db.Conn(context.WithoutCancel(ctx), l.gdb).Model(&row{}).Where("id = ?", id).Update("after", after).Error; err != nil {
			httpx.Logger(c).Warn("audit: the status of a moderated write", "err", err.Error())
		}
	}
}
