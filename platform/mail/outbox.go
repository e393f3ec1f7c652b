package mail

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"marquee/platform/apperr"
	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// Statuses of a message in the outbox. A message moves pending -> sending -> sent, or back to
// pending for a retry, or to failed after its last attempt. No status is ever deleted.
const (
	StatusPending = "pending"
	StatusSending = "sending" // claimed by a dispatcher until lease_until
	StatusSent    = "sent"
	StatusFailed  = "failed"
)

// outboxRow is a row of mail_outbox.
type outboxRow struct {
	ID            string `gorm:"primaryKey;size:36"`
	Recipients    string `gorm:"not null"` // JSON array of addresses
	Subject       string `gorm:"not null"`
	Text          string `gorm:"not null"`
	HTML          string `gorm:"column:html;not null"`
	ReplyTo       string `gorm:"not null"`
	Inline        string `gorm:"not null"` // JSON array of Inline (pictures in base64), or ""
	Status        string `gorm:"size:16;not null"`
	Attempts      int    `gorm:"not null"`
	NextAttemptAt time.Time
	LeaseUntil    *time.Time
	LastError     string `gorm:"not null"`
	CreatedAt     time.Time
	SentAt        *time.Time
}

func (outboxRow) TableName() string { return "mail_outbox" }

// mailOutbox0001 is the table as migration mail-0001 created it; a snapshot, so that later
// changes to outboxRow never change what this migration does.
type mailOutbox0001 struct {
	ID            string    `gorm:"primaryKey;size:36"`
	Recipients    string    `gorm:"type:text;not null"`
	Subject       string    `gorm:"type:text;not null"`
	Text          string    `gorm:"type:text;not null"`
	HTML          string    `gorm:"column:html;type:text;not null"`
	ReplyTo       string    `gorm:"type:text;not null"`
	Status        string    `gorm:"size:16;not null;index:mail_outbox_due,priority:1"`
	Attempts      int       `gorm:"not null;default:0"`
	NextAttemptAt time.Time `gorm:"not null;index:mail_outbox_due,priority:2"`
	LeaseUntil    *time.Time
	LastError     string    `gorm:"type:text;not null"`
	CreatedAt     time.Time `gorm:"not null;index:mail_outbox_created"`
	SentAt        *time.Time
}

func (mailOutbox0001) TableName() string { return "mail_outbox" }

// mailOutbox0002 is the column migration mail-0002 added: the message's inline pictures.
type mailOutbox0002 struct {
	Inline string `gorm:"type:text;not null;default:''"`
}

func (mailOutbox0002) TableName() string { return "mail_outbox" }

// Migrations create mail_outbox. The recipients column holds the message's To list; it is not
// called "to", a reserved word in SQL that every hand-written query would have to quote.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID:       "mail-0001-outbox",
		Migrate:  func(tx *gorm.DB) error { return tx.Migrator().CreateTable(&mailOutbox0001{}) },
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("mail_outbox") },
	}, {
		ID:       "mail-0002-inline",
		Migrate:  func(tx *gorm.DB) error { return tx.Migrator().AddColumn(&mailOutbox0002{}, "Inline") },
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropColumn(&mailOutbox0002{}, "Inline") },
	}}
}

// Outbox stores messages to send.
type Outbox struct {
	gdb *gorm.DB
	clk clock.Clock
}

// NewOutbox returns the outbox in gdb.
func NewOutbox(gdb *gorm.DB, clk clock.Clock) *Outbox {
	if gdb == nil || clk == nil {
		panic("mail: NewOutbox needs a database and a clock")
	}
	return &Outbox{gdb: gdb, clk: clk}
}

// Waiting counts the messages not yet sent nor given up on: pending, and claimed by a dispatcher
// (the outbox's depth, for /metrics).
func (o *Outbox) Waiting(ctx context.Context) (n int64, err error) {
	err = o.gdb.WithContext(ctx).Model(&outboxRow{}).Where("status IN ?", []string{StatusPending, StatusSending}).Count(&n).Error
	return n, err
}

// Enqueue stores m for delivery as soon as the dispatcher runs. It writes through the
// transaction carried by ctx, if any, so the message is sent only if the caller's change commits.
// The subject is folded to one line (FoldSubject). Returns EINVALID for a bad message (see
// Validate).
func (o *Outbox) Enqueue(ctx context.Context, m Message) error {
	m.Subject = FoldSubject(m.Subject)
	if err := Validate(m); err != nil {
		return err
	}
	to, err := json.Marshal(m.To)
	if err != nil {
		return apperr.Internal(err)
	}
	inline := ""
	if len(m.Inline) > 0 {
		b, err := json.Marshal(m.Inline) // Data in base64
		if err != nil {
			return apperr.Internal(err)
		}
		inline = string(b)
	}
	now := o.clk.Now().UTC()
	row := outboxRow{
		ID: ids.New(), Recipients: string(to), Subject: m.Subject, Text: m.Text, HTML: m.HTML, ReplyTo: m.ReplyTo, Inline: inline,
		Status: StatusPending, NextAttemptAt: now, CreatedAt: now,
	}
	if err := db.Conn(ctx, o.gdb).Create(&row).Error; err != nil {
		return apperr.Internal(fmt.Errorf("mail: enqueue: %w", err))
	}
	return nil
}

// QueuedMessage is a message in the outbox with its delivery state.
type QueuedMessage struct {
	ID string
	Message
	Status        string
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	CreatedAt     time.Time
	SentAt        *time.Time
}

// FindMessages returns every message in the outbox, oldest first: for tests, operations and an
// admin view.
func (o *Outbox) FindMessages(ctx context.Context) ([]*QueuedMessage, error) {
	var rows []outboxRow
	if err := db.Conn(ctx, o.gdb).Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, apperr.Internal(fmt.Errorf("mail: find messages: %w", err))
	}
	out := make([]*QueuedMessage, len(rows))
	for i, r := range rows {
		m, err := r.message()
		if err != nil {
			return nil, err
		}
		out[i] = &QueuedMessage{
			ID: r.ID, Message: m, Status: r.Status, Attempts: r.Attempts, NextAttemptAt: r.NextAttemptAt.UTC(),
			LastError: r.LastError, CreatedAt: r.CreatedAt.UTC(), SentAt: utcPtr(r.SentAt),
		}
	}
	return out, nil
}

func (r outboxRow) message() (Message, error) {
	m := Message{Subject: r.Subject, Text: r.Text, HTML: r.HTML, ReplyTo: r.ReplyTo}
	if err := json.Unmarshal([]byte(r.Recipients), &m.To); err != nil {
		return Message{}, apperr.Internal(fmt.Errorf("mail: message %s: recipients: %w", r.ID, err))
	}
	if r.Inline != "" {
		if err := json.Unmarshal([]byte(r.Inline), &m.Inline); err != nil {
			return Message{}, apperr.Internal(fmt.Errorf("mail: message %s: inline pictures: %w", r.ID, err))
		}
	}
	return m, nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
