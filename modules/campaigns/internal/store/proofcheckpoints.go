package store

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/db"
)

// ProofCheckpoint is a row of campaigns_proof_checkpoints: a place in a campaign's chain (every
// CheckpointEvery-th record) and that record's hash. The append writes it pending (VerifiedAt
// nil); the checkpoint job then verifies the records since the previous verified checkpoint (every
// hash, link, place, replaces, Marquee's signature and each screen's) and sets VerifiedAt. The
// public /verify walks from the newest verified checkpoint at or before its record instead of
// from the first record (docs/delivery-assurance.md "Checkpoints"). Problem is the first break the
// job found in the records up to it (the checkpoint then stays pending).
type ProofCheckpoint struct {
	CampaignID string `gorm:"primaryKey;size:36"`
	Seq        int64  `gorm:"primaryKey;autoIncrement:false"`
	Hash       string `gorm:"size:64;not null"`
	VerifiedAt *time.Time
	Problem    string `gorm:"size:500;not null;default:''"`
}

func (ProofCheckpoint) TableName() string { return "campaigns_proof_checkpoints" }

// ProofWeekHead is a row of campaigns_proof_week_heads: a campaign week's newest record (its seq)
// and how many records the week has, set in the append's transaction. The proof codes read these
// rows by primary key and then each head by (campaign, seq), instead of searching the chain
// (docs/screens.md "Pages with a year of plays").
type ProofWeekHead struct {
	CampaignID string `gorm:"primaryKey;size:36"`
	WeekID     string `gorm:"primaryKey;size:36"`
	Seq        int64  `gorm:"not null"`
	Records    int64  `gorm:"not null"`
}

func (ProofWeekHead) TableName() string { return "campaigns_proof_week_heads" }

// CheckpointEvery is how many records apart a chain's checkpoints are: a public /verify walks at
// most this many records past the newest verified checkpoint (plus what the job has not reached).
const CheckpointEvery = 1024

// proofCheckpointsMigration makes the checkpoints table, and a pending checkpoint at every
// CheckpointEvery-th record of the chains already there (the job verifies them).
var proofCheckpointsMigration = &db.Migration{
	ID: "campaigns-0008-proof-checkpoints",
	Migrate: func(tx *gorm.DB) error {
		if err := tx.Migrator().CreateTable(&proofCheckpoint0008{}); err != nil {
			return err
		}
		// The job reads the pending ones only: a partial index (both engines have them).
		if err := tx.Exec("CREATE INDEX ix_campaigns_proof_checkpoints_pending ON campaigns_proof_checkpoints (campaign_id, seq) WHERE verified_at IS NULL").Error; err != nil {
			return err
		}
		return tx.Exec(`INSERT INTO campaigns_proof_checkpoints (campaign_id, seq, hash, problem)
SELECT campaign_id, seq, hash, '' FROM campaigns_proof_records WHERE seq % ? = 0`, CheckpointEvery).Error
	},
	Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("campaigns_proof_checkpoints") },
}

// proofWeekHeadRowsMigration makes the week heads table from the chains already there.
var proofWeekHeadRowsMigration = &db.Migration{
	ID: "campaigns-0009-proof-week-head-rows",
	Migrate: func(tx *gorm.DB) error {
		if err := tx.Migrator().CreateTable(&proofWeekHead0009{}); err != nil {
			return err
		}
		// week_record numbers a week's records from 1 (campaigns-0007), so its maximum is the count.
		return tx.Exec(`INSERT INTO campaigns_proof_week_heads (campaign_id, week_id, seq, records)
SELECT campaign_id, week_id, MAX(seq), MAX(week_record) FROM campaigns_proof_records GROUP BY campaign_id, week_id`).Error
	},
	Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("campaigns_proof_week_heads") },
}

// The rows as campaigns-0008 and 0009 created them.
type proofCheckpoint0008 struct {
	CampaignID string `gorm:"primaryKey;size:36"`
	Seq        int64  `gorm:"primaryKey;autoIncrement:false"`
	Hash       string `gorm:"size:64;not null"`
	VerifiedAt *time.Time
	Problem    string `gorm:"size:500;not null;default:''"`
}

func (proofCheckpoint0008) TableName() string { return "campaigns_proof_checkpoints" }

type proofWeekHead0009 struct {
	CampaignID string `gorm:"primaryKey;size:36"`
	WeekID     string `gorm:"primaryKey;size:36"`
	Seq        int64  `gorm:"not null"`
	Records    int64  `gorm:"not null"`
}

func (proofWeekHead0009) TableName() string { return "campaigns_proof_week_heads" }

// SetWeekHead records the week's newest record, in the append's transaction.
func (s *Store) SetWeekHead(ctx context.Context, h ProofWeekHead) error {
	return s.conn(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "campaign_id"}, {Name: "week_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"seq", "records"})}).Create(&h).Error
}

// AddCheckpoint writes a pending checkpoint (the append's, every CheckpointEvery-th record).
func (s *Store) AddCheckpoint(ctx context.Context, campaignID string, seq int64, hash string) error {
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&ProofCheckpoint{CampaignID: campaignID, Seq: seq, Hash: hash}).Error
}

// VerifiedCheckpointAtOrBefore returns the campaign's newest verified checkpoint whose seq is at
// most seq (nil when there is none).
func (s *Store) VerifiedCheckpointAtOrBefore(ctx context.Context, campaignID string, seq int64) (*ProofCheckpoint, error) {
	var rows []ProofCheckpoint
	err := s.conn(ctx).Where("campaign_id = ? AND seq <= ? AND verified_at IS NOT NULL", campaignID, seq).Order("seq DESC").Limit(1).Find(&rows).Error
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// PendingCheckpoints returns up to limit checkpoints not verified yet, by campaign then seq.
func (s *Store) PendingCheckpoints(ctx context.Context, limit int) ([]ProofCheckpoint, error) {
	var rows []ProofCheckpoint
	err := s.conn(ctx).Where("verified_at IS NULL").Order("campaign_id, seq").Limit(limit).Find(&rows).Error
	return rows, err
}

// Checkpoints returns every checkpoint of a campaign, in seq order (marquee verify compares them
// with the chain).
func (s *Store) Checkpoints(ctx context.Context, campaignID string) ([]ProofCheckpoint, error) {
	var rows []ProofCheckpoint
	err := s.conn(ctx).Where("campaign_id = ?", campaignID).Order("seq").Find(&rows).Error
	return rows, err
}

// MarkCheckpoint sets a checkpoint verified (problem "") or records the break found before it.
func (s *Store) MarkCheckpoint(ctx context.Context, campaignID string, seq int64, verifiedAt *time.Time, problem string) error {
	if len(problem) > 500 {
		problem = problem[:500]
	}
	return s.conn(ctx).Model(&ProofCheckpoint{}).Where("campaign_id = ? AND seq = ?", campaignID, seq).
		Updates(map[string]any{"verified_at": verifiedAt, "problem": problem}).Error
}

// ProofSegment returns the campaign's records from..to (seqs, inclusive) in seq order, with what
// a check reads: seq, hash, canonical text and, when withSig, the signature.
func (s *Store) ProofSegment(ctx context.Context, campaignID string, from, to int64, withSig bool) ([]ProofRecord, error) {
	cols := "seq, hash || canonical, ''"
	if withSig {
		cols = "seq, hash || canonical, signature"
	}
	// hash and canonical come as one column: the SQLite driver's cost is per column and per row.
	rows, err := s.conn(ctx).Raw(`SELECT `+cols+` FROM campaigns_proof_records WHERE campaign_id = ? AND seq >= ? AND seq <= ? ORDER BY seq`, campaignID, from, to).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]ProofRecord, 0, max(min(to-from+1, 1<<16), 0))
	for rows.Next() {
		var r ProofRecord
		var both string
		if err := rows.Scan(&r.Seq, &both, &r.Signature); err != nil {
			return nil, err
		}
		if n := strings.IndexByte(both, '{'); n >= 0 { // a hash is hex; the canonical text starts with {
			r.Hash, r.Canonical = both[:n], both[n:]
		} else {
			r.Hash = both
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// WeekHeadSeqs returns the seq of each week's newest record of the campaign (week id -> seq).
func (s *Store) WeekHeadSeqs(ctx context.Context, campaignID string) (map[string]int64, error) {
	var rows []ProofWeekHead
	if err := s.conn(ctx).Where("campaign_id = ?", campaignID).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.WeekID] = r.Seq
	}
	return out, nil
}

// ProofChainPage returns up to limit of the campaign's records after seq after, in seq order.
func (s *Store) ProofChainPage(ctx context.Context, campaignID string, after int64, limit int) ([]ProofRecord, error) {
	var out []ProofRecord
	err := s.conn(ctx).Where("campaign_id = ? AND seq > ?", campaignID, after).Order("seq").Limit(limit).Find(&out).Error
	return out, err
}

// ProofRecordsByIDs returns the campaign's records with these ids (seq and canonical text). It
// reads them by primary key and drops another campaign's afterwards: with the campaign in the
// WHERE, SQLite chose the (campaign, seq) index and read the campaign's whole chain.
func (s *Store) ProofRecordsByIDs(ctx context.Context, campaignID string, ids []string) ([]ProofRecord, error) {
	var out []ProofRecord
	for start := 0; start < len(ids); start += 500 {
		var rows []ProofRecord
		if err := s.conn(ctx).Select("id, campaign_id, seq, canonical").Where("id IN ?", ids[start:min(start+500, len(ids))]).Find(&rows).Error; err != nil {
			return nil, err
		}
		for _, r := range rows {
			if r.CampaignID == campaignID {
				out = append(out, r)
			}
		}
	}
	return out, nil
}
