// Package store holds the screens module's rows and queries (tables prefixed screens_).
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/dates"
	"marquee/platform/db"
)

// Screen is a paired player: one face, one Ed25519 public key (base64 of its 32 bytes). Status is
// active or revoked; a revoked screen's calls answer 401. The heartbeat fields are the last one
// received. SilentSince is set when the health job has emailed that the screen went silent, and
// cleared (with a second email) when it is heard again.
type Screen struct {
	ID                string `gorm:"primaryKey;size:36"`
	FaceID            string `gorm:"size:36;not null;index"`
	PublicKey         string `gorm:"size:64;not null"`
	Status            string `gorm:"size:10;not null"`
	PairedAt          time.Time
	RevokedAt         *time.Time
	LastSeenAt        *time.Time
	AppVersion        string `gorm:"size:100;not null;default:''"`
	FreeDiskBytes     int64  `gorm:"not null;default:0"`
	CurrentCreativeID string `gorm:"size:36;not null;default:''"`
	LastError         string `gorm:"size:500;not null;default:''"`
	SilentSince       *time.Time
	CreatedAt         time.Time
}

func (Screen) TableName() string { return "screens_screens" }

// PairingCode is a single-use code that pairs a player with a face. Only the SHA-256 of the code
// is stored; the code itself is shown once.
type PairingCode struct {
	ID        string    `gorm:"primaryKey;size:36"`
	CodeHash  string    `gorm:"size:64;not null;uniqueIndex"`
	FaceID    string    `gorm:"size:36;not null"`
	CreatedBy string    `gorm:"size:36;not null;default:''"`
	ExpiresAt time.Time `gorm:"not null"`
	UsedAt    *time.Time
	ScreenID  string `gorm:"size:36;not null;default:''"`
	CreatedAt time.Time
}

func (PairingCode) TableName() string { return "screens_pairing_codes" }

// Play is one play a screen reported. Flag is empty for a counted play, else why it is not
// counted. Week is the Monday of the play's day in the face's time zone. On PostgreSQL the table
// is partitioned by week (PlayPartitions), and a partitioned table's keys must hold the partition
// key: the primary key is (screen, seq, week). A play is still stored once per (screen, seq):
// a batch's transaction holds its screen's lock and reads the seqs already stored (ExistingSeqs)
// before it inserts, with ON CONFLICT DO NOTHING besides.
type Play struct {
	ScreenID   string     `gorm:"primaryKey;size:36"`
	Seq        int64      `gorm:"primaryKey;autoIncrement:false"`
	Week       dates.Date `gorm:"primaryKey;type:varchar(10);index:ix_screens_plays_face_week,priority:2"`
	FaceID     string     `gorm:"size:36;not null;index:ix_screens_plays_face_week,priority:1"`
	CampaignID string     `gorm:"size:36;not null"`
	CreativeID string     `gorm:"size:36;not null"`
	StartedAt  time.Time  `gorm:"not null"`
	DurationMs int64      `gorm:"not null"`
	Flag       string     `gorm:"size:20;not null;default:''"`
	BatchID    string     `gorm:"size:36;not null"`
	ReceivedAt time.Time  `gorm:"not null"`
}

func (Play) TableName() string { return "screens_plays" }

// Batch is one accepted POST /api/device/plays: the SHA-256 of its body, the device's signature
// and the exact message it signed (method, path, timestamp, body hash), and what it counted.
type Batch struct {
	ID         string `gorm:"primaryKey;size:36"`
	ScreenID   string `gorm:"size:36;not null;index"`
	Hash       string `gorm:"size:64;not null"`
	Signature  string `gorm:"size:100;not null"`
	Message    string `gorm:"size:300;not null"`
	Received   int    `gorm:"not null"`
	Accepted   int    `gorm:"not null"`
	Duplicates int    `gorm:"not null"`
	Flagged    int    `gorm:"not null"`
	CreatedAt  time.Time
}

func (Batch) TableName() string { return "screens_batches" }

// Rollup is the counted plays of one face, campaign and creative in one UTC hour: the pages and
// the delivery figures read these, never the raw plays. Rollups are kept for good.
type Rollup struct {
	FaceID     string     `gorm:"primaryKey;size:36"`
	CampaignID string     `gorm:"primaryKey;size:36"`
	CreativeID string     `gorm:"primaryKey;size:36"`
	Hour       time.Time  `gorm:"primaryKey"`
	Week       dates.Date `gorm:"type:varchar(10);not null;index"`
	Plays      int64      `gorm:"not null"`
}

func (Rollup) TableName() string { return "screens_rollups" }

// FileHash is the SHA-256 of a stored creative file, computed once (file keys are never
// rewritten).
type FileHash struct {
	FileKey string `gorm:"primaryKey;size:300"`
	SHA256  string `gorm:"column:sha256;size:64;not null"`
}

func (FileHash) TableName() string { return "screens_file_hashes" }

// Store runs the module's queries.
type Store struct{ db *gorm.DB }

func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

// conn joins the transaction carried in ctx, if any.
func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

func (s *Store) Create(ctx context.Context, row any) error { return s.conn(ctx).Create(row).Error }

// FindScreen returns the screen with this id, or nil when there is none.
func (s *Store) FindScreen(ctx context.Context, id string) (*Screen, error) {
	var row Screen
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, nil
		}
		return nil, err
	}
	return &row, nil
}

// Screens returns every screen, newest pairing first.
func (s *Store) Screens(ctx context.Context) ([]Screen, error) {
	var rows []Screen
	err := s.conn(ctx).Order("paired_at DESC, id").Find(&rows).Error
	return rows, err
}

// ActiveScreens returns the screens that are not revoked.
func (s *Store) ActiveScreens(ctx context.Context) ([]Screen, error) {
	var rows []Screen
	err := s.conn(ctx).Where("status = ?", "active").Order("id").Find(&rows).Error
	return rows, err
}

// ActiveScreenOfFace reports whether the face has an active screen.
func (s *Store) ActiveScreenOfFace(ctx context.Context, faceID string) (bool, error) {
	var n int64
	err := s.conn(ctx).Model(&Screen{}).Where("face_id = ? AND status = ?", faceID, "active").Count(&n).Error
	return n > 0, err
}

// RevokeScreensOfFace revokes the face's active screens.
func (s *Store) RevokeScreensOfFace(ctx context.Context, faceID string, now time.Time) error {
	return s.conn(ctx).Model(&Screen{}).Where("face_id = ? AND status = ?", faceID, "active").
		Updates(map[string]any{"status": "revoked", "revoked_at": now}).Error
}

// UpdateScreen sets these columns of a screen.
func (s *Store) UpdateScreen(ctx context.Context, id string, set map[string]any) error {
	return s.conn(ctx).Model(&Screen{}).Where("id = ?", id).Updates(set).Error
}

// TouchScreen records that the screen was heard at now, unless it was within the last 30 s (a
// write per poll would be the busiest query of a large network).
func (s *Store) TouchScreen(ctx context.Context, id string, now time.Time) error {
	return s.conn(ctx).Model(&Screen{}).Where("id = ? AND (last_seen_at IS NULL OR last_seen_at < ?)", id, now.Add(-30*time.Second)).
		Update("last_seen_at", now).Error
}

// UsePairingCode marks the unexpired, unused code with this hash as used by screenID and returns
// it; nil when there is none. The update is conditional, so two players racing for one code
// cannot both win.
func (s *Store) UsePairingCode(ctx context.Context, hash, screenID string, now time.Time) (*PairingCode, error) {
	res := s.conn(ctx).Model(&PairingCode{}).Where("code_hash = ? AND used_at IS NULL AND expires_at > ?", hash, now).
		Updates(map[string]any{"used_at": now, "screen_id": screenID})
	if res.Error != nil || res.RowsAffected != 1 {
		return nil, res.Error
	}
	var row PairingCode
	if err := s.conn(ctx).Where("code_hash = ?", hash).Take(&row).Error; err != nil {
		return nil, err
	}
	return &row, nil
}

// ExistingSeqs returns which of these seqs the screen has already sent.
func (s *Store) ExistingSeqs(ctx context.Context, screenID string, seqs []int64) (map[int64]bool, error) {
	out := make(map[int64]bool)
	for i := 0; i < len(seqs); i += 500 {
		var got []int64
		if err := s.conn(ctx).Model(&Play{}).Where("screen_id = ? AND seq IN ?", screenID, seqs[i:min(i+500, len(seqs))]).
			Pluck("seq", &got).Error; err != nil {
			return nil, err
		}
		for _, q := range got {
			out[q] = true
		}
	}
	return out, nil
}

// InsertPlays inserts plays; a (screen, seq) already stored is left as it is (ON CONFLICT DO
// NOTHING on both engines).
func (s *Store) InsertPlays(ctx context.Context, rows []Play) error {
	if len(rows) == 0 {
		return nil
	}
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(rows, 200).Error
}

// AddRollups adds counted plays to the hourly rollups.
func (s *Store) AddRollups(ctx context.Context, rows []Rollup) error {
	if len(rows) == 0 {
		return nil
	}
	return s.conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "face_id"}, {Name: "campaign_id"}, {Name: "creative_id"}, {Name: "hour"}},
		DoUpdates: clause.Assignments(map[string]any{"plays": gorm.Expr("screens_rollups.plays + excluded.plays")}),
	}).Create(&rows).Error
}

// CountedPlays is the counted plays of one campaign on one face in one week.
type CountedPlays struct {
	CampaignID string
	Week       dates.Date
	Plays      int64
}

// CountedPlaysOf sums the rollups of a face for these campaign weeks.
func (s *Store) CountedPlaysOf(ctx context.Context, faceID string, campaignIDs []string, weeks []dates.Date) ([]CountedPlays, error) {
	var out []CountedPlays
	if len(campaignIDs) == 0 || len(weeks) == 0 {
		return out, nil
	}
	err := s.conn(ctx).Model(&Rollup{}).Select("campaign_id, week, SUM(plays) AS plays").
		Where("face_id = ? AND campaign_id IN ? AND week IN ?", faceID, campaignIDs, weeks).
		Group("campaign_id, week").Scan(&out).Error
	return out, err
}

// PlaysSince sums the counted plays of each face since a time (the admin list's "today").
func (s *Store) PlaysSince(ctx context.Context, faceIDs []string, since time.Time) (map[string]int64, error) {
	out := map[string]int64{}
	if len(faceIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		FaceID string
		Plays  int64
	}
	err := s.conn(ctx).Model(&Rollup{}).Select("face_id, SUM(plays) AS plays").Where("face_id IN ? AND hour >= ?", faceIDs, since).
		Group("face_id").Scan(&rows).Error
	for _, r := range rows {
		out[r.FaceID] = r.Plays
	}
	return out, err
}

// CountPlays counts the stored plays of a screen (tests and the admin list).
func (s *Store) CountPlays(ctx context.Context, screenID string) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&Play{}).Where("screen_id = ?", screenID).Count(&n).Error
	return n, err
}

// FileHashes returns the known SHA-256 of these file keys.
func (s *Store) FileHashes(ctx context.Context, keys []string) (map[string]string, error) {
	out := map[string]string{}
	if len(keys) == 0 {
		return out, nil
	}
	var rows []FileHash
	if err := s.conn(ctx).Where("file_key IN ?", keys).Find(&rows).Error; err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.FileKey] = r.SHA256
	}
	return out, nil
}

// SaveFileHash records a file's SHA-256 (a second writer of the same key changes nothing).
func (s *Store) SaveFileHash(ctx context.Context, key, sum string) error {
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&FileHash{FileKey: key, SHA256: sum}).Error
}

// Migrations create the module's tables.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "screens-0001-screens-codes-plays-batches-rollups",
		Migrate: func(tx *gorm.DB) error {
			if err := tx.Migrator().CreateTable(&screen0001{}, &pairingCode0001{}, &batch0001{}, &rollup0001{}, &fileHash0001{}); err != nil {
				return err
			}
			if db.Dialect(tx) != db.Postgres {
				return tx.Migrator().CreateTable(&play0001{})
			}
			// PostgreSQL: raw plays by week (RANGE on the week's Monday, YYYY-MM-DD text orders as
			// dates do), a default partition for any week without its own, and the weeks around
			// the migration's day, made while the table is empty (PlayPartitions makes the rest).
			if err := tx.Set("gorm:table_options", "PARTITION BY RANGE (week)").Migrator().CreateTable(&play0001{}); err != nil {
				return err
			}
			if err := tx.Exec("CREATE SCHEMA IF NOT EXISTS " + PartitionSchema).Error; err != nil {
				return err
			}
			if err := tx.Exec("CREATE TABLE " + PartitionSchema + ".plays_default PARTITION OF screens_plays DEFAULT").Error; err != nil {
				return err
			}
			this := dates.Of(time.Now().UTC()).WeekStart()
			for _, wk := range this.AddWeeks(-3).Weeks(3 + PartitionWeeksAhead) {
				if err := createPlayPartition(tx, wk); err != nil {
					return err
				}
			}
			return nil
		},
		Rollback: func(tx *gorm.DB) error {
			if err := tx.Migrator().DropTable("screens_file_hashes", "screens_rollups", "screens_batches", "screens_plays", "screens_pairing_codes", "screens_screens"); err != nil {
				return err
			}
			if db.Dialect(tx) == db.Postgres {
				return tx.Exec("DROP SCHEMA IF EXISTS " + PartitionSchema + " CASCADE").Error
			}
			return nil
		},
	}, importMigration()}
}

// The tables as migration 0001 made them (snapshots: a later change to a row never changes what
// the migration does).
type screen0001 struct {
	ID                string `gorm:"primaryKey;size:36"`
	FaceID            string `gorm:"size:36;not null;index"`
	PublicKey         string `gorm:"size:64;not null"`
	Status            string `gorm:"size:10;not null"`
	PairedAt          time.Time
	RevokedAt         *time.Time
	LastSeenAt        *time.Time
	AppVersion        string `gorm:"size:100;not null;default:''"`
	FreeDiskBytes     int64  `gorm:"not null;default:0"`
	CurrentCreativeID string `gorm:"size:36;not null;default:''"`
	LastError         string `gorm:"size:500;not null;default:''"`
	SilentSince       *time.Time
	CreatedAt         time.Time
}

func (screen0001) TableName() string { return "screens_screens" }

type pairingCode0001 struct {
	ID        string    `gorm:"primaryKey;size:36"`
	CodeHash  string    `gorm:"size:64;not null;uniqueIndex"`
	FaceID    string    `gorm:"size:36;not null"`
	CreatedBy string    `gorm:"size:36;not null;default:''"`
	ExpiresAt time.Time `gorm:"not null"`
	UsedAt    *time.Time
	ScreenID  string `gorm:"size:36;not null;default:''"`
	CreatedAt time.Time
}

func (pairingCode0001) TableName() string { return "screens_pairing_codes" }

type play0001 struct {
	ScreenID   string     `gorm:"primaryKey;size:36"`
	Seq        int64      `gorm:"primaryKey;autoIncrement:false"`
	Week       dates.Date `gorm:"primaryKey;type:varchar(10);index:ix_screens_plays_face_week,priority:2"`
	FaceID     string     `gorm:"size:36;not null;index:ix_screens_plays_face_week,priority:1"`
	CampaignID string     `gorm:"size:36;not null"`
	CreativeID string     `gorm:"size:36;not null"`
	StartedAt  time.Time  `gorm:"not null"`
	DurationMs int64      `gorm:"not null"`
	Flag       string     `gorm:"size:20;not null;default:''"`
	BatchID    string     `gorm:"size:36;not null"`
	ReceivedAt time.Time  `gorm:"not null"`
}

func (play0001) TableName() string { return "screens_plays" }

type batch0001 struct {
	ID         string `gorm:"primaryKey;size:36"`
	ScreenID   string `gorm:"size:36;not null;index"`
	Hash       string `gorm:"size:64;not null"`
	Signature  string `gorm:"size:100;not null"`
	Message    string `gorm:"size:300;not null"`
	Received   int    `gorm:"not null"`
	Accepted   int    `gorm:"not null"`
	Duplicates int    `gorm:"not null"`
	Flagged    int    `gorm:"not null"`
	CreatedAt  time.Time
}

func (batch0001) TableName() string { return "screens_batches" }

type rollup0001 struct {
	FaceID     string     `gorm:"primaryKey;size:36"`
	CampaignID string     `gorm:"primaryKey;size:36"`
	CreativeID string     `gorm:"primaryKey;size:36"`
	Hour       time.Time  `gorm:"primaryKey"`
	Week       dates.Date `gorm:"type:varchar(10);not null;index"`
	Plays      int64      `gorm:"not null"`
}

func (rollup0001) TableName() string { return "screens_rollups" }

type fileHash0001 struct {
	FileKey string `gorm:"primaryKey;size:300"`
	SHA256  string `gorm:"column:sha256;size:64;not null"`
}

func (fileHash0001) TableName() string { return "screens_file_hashes" }

// RenewUnusedCode sets the expiry of the unused code with this hash; it reports whether there was
// one.
func (s *Store) RenewUnusedCode(ctx context.Context, hash string, expires time.Time) (bool, error) {
	res := s.conn(ctx).Model(&PairingCode{}).Where("code_hash = ? AND used_at IS NULL", hash).Update("expires_at", expires)
	return res.RowsAffected > 0, res.Error
}

// CreateIfAbsent inserts a row unless one with the same key (or unique hash) exists.
func (s *Store) CreateIfAbsent(ctx context.Context, row any) error {
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(row).Error
}

// DeletePlaysBefore deletes up to limit raw plays that started before the time; it answers how
// many it deleted. The rollups stay.
func (s *Store) DeletePlaysBefore(ctx context.Context, before time.Time, limit int) (int64, error) {
	sub := s.conn(ctx).Model(&Play{}).Select("screen_id, seq, week").Where("started_at < ?", before).Limit(limit)
	res := s.conn(ctx).Where("(screen_id, seq, week) IN (?)", sub).Delete(&Play{})
	return res.RowsAffected, res.Error
}

// PartitionWeeksAhead is how many weeks ahead of the current one the plays' partitions exist
// (PostgreSQL): a week's partition must exist before its first play, since one cannot be added
// for a range the default partition already holds rows of.
const PartitionWeeksAhead = 4

// PartitionSchema holds the plays' partitions on PostgreSQL (plays_default and w<YYYYMMDD>), out
// of the tables' own schema.
const PartitionSchema = "screens_parts"

func partitionName(week dates.Date) string {
	return "w" + week.Format("20060102")
}

func createPlayPartition(tx *gorm.DB, week dates.Date) error {
	return tx.Exec(fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s PARTITION OF screens_plays FOR VALUES FROM ('%s') TO ('%s')",
		PartitionSchema, partitionName(week), week.String(), week.AddWeeks(1).String())).Error
}

// PlayPartitions, on PostgreSQL, makes the weekly partitions from this week to
// PartitionWeeksAhead weeks ahead, and drops those whose week ended before keepFrom (the
// retention). It answers how many it made and dropped; a week whose partition cannot be made
// (the default partition already holds its plays, after a long stop) is skipped, its plays stay in
// the default partition, and DeletePlaysBefore prunes them. On SQLite it does nothing.
func (s *Store) PlayPartitions(ctx context.Context, thisWeek dates.Date, keepFrom dates.Date) (made, dropped int, err error) {
	c := s.conn(ctx)
	if db.Dialect(c) != db.Postgres {
		return 0, 0, nil
	}
	var names []string
	if err := c.Raw(`SELECT child.relname FROM pg_inherits JOIN pg_class parent ON parent.oid = pg_inherits.inhparent
JOIN pg_class child ON child.oid = pg_inherits.inhrelid WHERE parent.oid = 'screens_plays'::regclass`).Scan(&names).Error; err != nil {
		return 0, 0, err
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	for _, wk := range thisWeek.Weeks(1 + PartitionWeeksAhead) {
		if have[partitionName(wk)] {
			continue
		}
		if err := c.Transaction(func(tx *gorm.DB) error { return createPlayPartition(tx, wk) }); err != nil {
			continue // the default partition holds plays of that week: they stay there
		}
		made++
	}
	for _, n := range names {
		raw, ok := strings.CutPrefix(n, "w")
		if !ok || len(raw) != 8 {
			continue
		}
		t, perr := time.Parse("20060102", raw)
		if perr != nil {
			continue
		}
		if dates.Of(t).AddWeeks(1).After(keepFrom) {
			continue
		}
		if err := c.Exec("DROP TABLE IF EXISTS " + PartitionSchema + "." + n).Error; err != nil {
			return made, dropped, err
		}
		dropped++
	}
	return made, dropped, nil
}
