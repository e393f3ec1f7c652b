package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"gorm.io/gorm"

	"marquee/platform/clock"
	"marquee/platform/db"
	"marquee/platform/ids"
)

// sessionRow is a signed-in browser. Only the SHA-256 of the token is stored, so a database leak
// does not leak live sessions.
type sessionRow struct {
	ID         string    `gorm:"primaryKey;size:36"`
	TokenHash  string    `gorm:"size:64;uniqueIndex;not null"`
	UserID     string    `gorm:"size:36;index;not null"`
	CreatedAt  time.Time `gorm:"not null"`
	LastSeenAt time.Time `gorm:"not null"`
	ExpiresAt  time.Time `gorm:"index;not null"` // the absolute expiry
	IP         string    `gorm:"size:64"`
	UserAgent  string    `gorm:"size:256"`
	// ModeratorID marks a moderated session: the admin acting as UserID (DESIGN.md §1.12).
	ModeratorID string `gorm:"size:36;not null;default:''"`
}

func (sessionRow) TableName() string { return "auth_sessions" }

// sessions0001 is the table as migration auth-0001 created it; a snapshot, so that later columns
// of sessionRow come from their own migrations.
type sessions0001 struct {
	ID         string    `gorm:"primaryKey;size:36"`
	TokenHash  string    `gorm:"size:64;uniqueIndex:idx_auth_sessions_token_hash;not null"`
	UserID     string    `gorm:"size:36;index:idx_auth_sessions_user_id;not null"`
	CreatedAt  time.Time `gorm:"not null"`
	LastSeenAt time.Time `gorm:"not null"`
	ExpiresAt  time.Time `gorm:"index:idx_auth_sessions_expires_at;not null"`
	IP         string    `gorm:"size:64"`
	UserAgent  string    `gorm:"size:256"`
}

func (sessions0001) TableName() string { return "auth_sessions" }

// Migrations are the auth tables' schema changes.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "auth-0001-sessions",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&sessions0001{})
		},
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("auth_sessions") },
	}, {
		ID: "auth-0002-session-moderator",
		Migrate: func(tx *gorm.DB) error {
			type sessionRow0002 struct {
				ModeratorID string `gorm:"size:36;not null;default:''"`
			}
			if err := tx.Table("auth_sessions").Migrator().AddColumn(&sessionRow0002{}, "ModeratorID"); err != nil {
				return err
			}
			// Ending an admin's moderated sessions (disable) finds them by moderator.
			return tx.Exec("CREATE INDEX auth_sessions_moderator ON auth_sessions (moderator_id)").Error
		},
		Rollback: func(tx *gorm.DB) error {
			if err := tx.Exec("DROP INDEX auth_sessions_moderator").Error; err != nil {
				return err
			}
			return tx.Migrator().DropColumn(&sessionRow{}, "moderator_id")
		},
	}}
}

// Session is a live session.
type Session struct {
	ID         string
	UserID     string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time
	// ModeratorID is the admin acting as UserID, for a moderated session; "" otherwise.
	ModeratorID string
}

// Sessions stores sessions.
type Sessions struct {
	db       *gorm.DB
	clock    clock.Clock
	idle     time.Duration
	absolute time.Duration
	cache    *sessionCache
}

// NewSessions returns the session store. A session ends after idle without use, or absolute after
// sign-in, whichever comes first.
func NewSessions(gdb *gorm.DB, clk clock.Clock, idle, absolute time.Duration) *Sessions {
	return &Sessions{db: gdb, clock: clk, idle: idle, absolute: absolute, cache: newSessionCache()}
}

// Cache turns on the in-process cache of resolved sessions for principals read by loader (see
// cache.go); on PostgreSQL it listens for other replicas' revocations until the database is closed
// (db.Close). A loader that does not name its tables is never cached.
func (s *Sessions) Cache(loader PrincipalLoader) {
	if t, ok := loader.(PrincipalTables); ok {
		s.cache.start(s.db, t.PrincipalTables())
	}
}

// Cached reports whether token's session is answered from memory now (tests, diagnostics).
func (s *Sessions) Cached(token string) bool {
	e := s.cache.get(HashToken(token))
	return e != nil && s.live(e.sess.ExpiresAt, e.sess.LastSeenAt)
}

// Resolve returns the live session of token and its principal, or nils when the token is unknown,
// expired or its user has no principal (disabled, deleted). The answer comes from the cache when
// nothing could have changed it since it was read.
func (s *Sessions) Resolve(ctx context.Context, token string, loader PrincipalLoader) (*Session, *Principal, error) {
	if token == "" || len(token) > 128 {
		return nil, nil, nil
	}
	hash := HashToken(token)
	if e := s.cache.get(hash); e != nil && s.live(e.sess.ExpiresAt, e.sess.LastSeenAt) {
		sess, p := e.sess, e.p
		return &sess, &p, nil
	}
	gen, cacheable := s.cache.begin()
	sess, err := s.lookup(ctx, hash)
	if err != nil || sess == nil {
		return nil, nil, err
	}
	p, err := loader.LoadPrincipal(ctx, sess.UserID)
	if err != nil || p == nil {
		return nil, nil, err
	}
	p.SessionID = sess.ID
	s.cache.put(hash, gen, cacheable, sess, p)
	return sess, p, nil
}

func (s *Sessions) live(expiresAt, lastSeenAt time.Time) bool {
	now := s.clock.Now()
	return now.Before(expiresAt) && now.Before(lastSeenAt.Add(s.idle))
}

// HashToken is the stored form of a secret token (a session, a reset or access link): hex SHA-256.
// The tokens are long random strings, so a fast hash is enough; the database never holds the token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Create starts a session for userID and returns its token (shown once, to the cookie).
func (s *Sessions) Create(ctx context.Context, userID, ip, userAgent string) (string, error) {
	return s.CreateModerated(ctx, userID, "", ip, userAgent)
}

// CreateModerated starts a session for userID in which the admin moderatorID acts as that user
// (a moderated sign-in, DESIGN.md §1.12); "" makes an ordinary session.
func (s *Sessions) CreateModerated(ctx context.Context, userID, moderatorID, ip, userAgent string) (string, error) {
	token := ids.Token()
	now := s.clock.Now()
	if len(userAgent) > 256 {
		userAgent = userAgent[:256]
	}
	if len(ip) > 64 {
		ip = ip[:64]
	}
	row := sessionRow{ID: ids.New(), TokenHash: HashToken(token), UserID: userID, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(s.absolute), IP: ip, UserAgent: userAgent, ModeratorID: moderatorID}
	if err := db.Quiet(db.Conn(ctx, s.db)).Create(&row).Error; err != nil {
		return "", err
	}
	return token, nil
}

// Lookup returns the live session of token, or nil when it is unknown or expired. It does not
// extend the session; Touch does.
func (s *Sessions) Lookup(ctx context.Context, token string) (*Session, error) {
	if token == "" || len(token) > 128 {
		return nil, nil
	}
	return s.lookup(ctx, HashToken(token))
}

func (s *Sessions) lookup(ctx context.Context, hash string) (*Session, error) {
	var row sessionRow
	err := db.Conn(ctx, s.db).Where("token_hash = ?", hash).Take(&row).Error
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !s.live(row.ExpiresAt, row.LastSeenAt) {
		return nil, nil
	}
	return &Session{ID: row.ID, UserID: row.UserID, CreatedAt: row.CreatedAt, LastSeenAt: row.LastSeenAt, ExpiresAt: row.ExpiresAt,
		ModeratorID: row.ModeratorID}, nil
}

// touchEvery limits last-seen writes to one a minute per session.
const touchEvery = time.Minute

// Touch records use of the session, which pushes back its idle expiry. It cannot end a session, so
// it leaves the cache alone (but for the entry's last-seen time).
func (s *Sessions) Touch(ctx context.Context, token string, sess *Session) error {
	now := s.clock.Now()
	if now.Sub(sess.LastSeenAt) < touchEvery {
		return nil
	}
	err := db.Quiet(db.Conn(ctx, s.db)).Model(&sessionRow{}).Where("id = ?", sess.ID).Update("last_seen_at", now).Error
	if err == nil {
		s.cache.touched(HashToken(token), now)
	}
	return err
}

// Revoke ends the session of token. Unknown tokens are ignored.
func (s *Sessions) Revoke(ctx context.Context, token string) error {
	return db.Conn(ctx, s.db).Where("token_hash = ?", HashToken(token)).Delete(&sessionRow{}).Error
}

// RevokeUser ends every session of userID except the one with keepID ("" ends all); used when a
// password changes.
func (s *Sessions) RevokeUser(ctx context.Context, userID, keepID string) error {
	q := db.Conn(ctx, s.db).Where("user_id = ?", userID)
	if keepID != "" {
		q = q.Where("id <> ?", keepID)
	}
	return q.Delete(&sessionRow{}).Error
}

// RevokeUsers ends every session of these users, and every moderated session in which one of
// them acts as someone (their company is disabled).
func (s *Sessions) RevokeUsers(ctx context.Context, userIDs []string) error {
	for len(userIDs) > 0 {
		n := min(len(userIDs), 1000) // the databases cap the parameters of one statement
		if err := db.Conn(ctx, s.db).Where("user_id IN ? OR moderator_id IN ?", userIDs[:n], userIDs[:n]).Delete(&sessionRow{}).Error; err != nil {
			return err
		}
		userIDs = userIDs[n:]
	}
	return nil
}

// RevokeModeratedBy ends every moderated session in which moderatorID acts as someone (the admin
// is disabled).
func (s *Sessions) RevokeModeratedBy(ctx context.Context, moderatorID string) error {
	if moderatorID == "" {
		return nil
	}
	return db.Conn(ctx, s.db).Where("moderator_id = ?", moderatorID).Delete(&sessionRow{}).Error
}

// RevokeID ends the session with this id.
func (s *Sessions) RevokeID(ctx context.Context, id string) error {
	return db.Conn(ctx, s.db).Where("id = ?", id).Delete(&sessionRow{}).Error
}

// DeleteExpired removes sessions past their absolute or idle expiry; a periodic job calls it.
func (s *Sessions) DeleteExpired(ctx context.Context) (int64, error) {
	now := s.clock.Now()
	res := db.Conn(ctx, s.db).Where("expires_at <= ? OR last_seen_at <= ?", now, now.Add(-s.idle)).Delete(&sessionRow{})
	return res.RowsAffected, res.Error
}
