package store

import (
	"cmp"
	"context"
	"slices"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/db"
)

// ProofRecord is a row of campaigns_proof_records: one link of a campaign's signed proof-of-play
// chain (docs/delivery-assurance.md). The record IS its Canonical text (the exact bytes
// hashed into Hash and signed into Signature); the other columns index it (campaign and seq, week,
// code) and ProofKeys says where /verify serves its proofs from. Rows are only ever inserted: a
// correction is a new row whose signed "replaces" names the row it supersedes. Seq numbers a
// campaign's chain from 1, and the unique (campaign_id, seq) refuses a second writer at the same
// place. CodeHash (the SHA-256 of the verification code) is what /verify looks up, so the lookup
// compares hashes and never a prefix of the typed code.
//
// A paired screen appends a record per batch (a minute) to each campaign-week it played, so a
// week of a screen-fed face has thousands of records: what reads the weeks' current records
// (ProofCodesOf: the campaign page and the report) reads one row a week through the (campaign,
// week, seq) index (WeekHeads), and WeekRecord (the record's number within its week, from 1) makes
// the week's last record say how many the week has.
type ProofRecord struct {
	ID         string `gorm:"primaryKey;size:36"`
	CampaignID string `gorm:"size:36;not null;uniqueIndex:ux_campaigns_proof_seq,priority:1;index:ix_campaigns_proof_week_seq,priority:1"`
	Seq        int64  `gorm:"not null;uniqueIndex:ux_campaigns_proof_seq,priority:2;index:ix_campaigns_proof_week_seq,priority:3"`
	WeekID     string `gorm:"size:36;not null;index:ix_campaigns_proof_week_seq,priority:2"`
	WeekRecord int64  `gorm:"not null;default:0"` // not signed: an index, like seq's column
	Code       string `gorm:"size:12;not null"`
	CodeHash   string `gorm:"size:64;not null;uniqueIndex"`
	Canonical  string `gorm:"type:text;not null"`
	Hash       string `gorm:"size:64;not null"`
	Signature  string `gorm:"size:100;not null"`  // base64
	ProofKeys  string `gorm:"type:text;not null"` // JSON {"proof id": "file key"} (not signed: the signed SHA-256 proves the image)
}

func (ProofRecord) TableName() string { return "campaigns_proof_records" }

// ProofFile is a row of campaigns_proof_files: the SHA-256 of a stored proof image, computed once
// when it is attached (file keys are never rewritten, so the digest never goes stale).
type ProofFile struct {
	FileKey string `gorm:"primaryKey;size:300"`
	SHA256  string `gorm:"column:sha256;size:64;not null"`
}

func (ProofFile) TableName() string { return "campaigns_proof_files" }

var proofChainMigration = &db.Migration{
	ID: "campaigns-0005-proof-chain",
	Migrate: func(tx *gorm.DB) error {
		return tx.Migrator().CreateTable(&proofRecord0005{}, &proofFile0005{})
	},
	Rollback: func(tx *gorm.DB) error {
		return tx.Migrator().DropTable("campaigns_proof_files", "campaigns_proof_records")
	},
}

// proofWeekHeadsMigration numbers each record within its week and indexes (campaign, week, seq),
// in place of the week's own index (which it covers): the week heads are read one row a week
// (docs/screens.md "Pages with a year of plays").
var proofWeekHeadsMigration = &db.Migration{
	ID: "campaigns-0007-proof-week-heads",
	Migrate: func(tx *gorm.DB) error {
		if err := tx.Migrator().AddColumn(&proofRecord0007{}, "WeekRecord"); err != nil {
			return err
		}
		// A week's records all belong to one campaign, so seq orders them.
		if err := tx.Exec(`UPDATE campaigns_proof_records SET week_record = (SELECT COUNT(*) FROM campaigns_proof_records p
WHERE p.week_id = campaigns_proof_records.week_id AND p.seq <= campaigns_proof_records.seq)`).Error; err != nil {
			return err
		}
		if err := tx.Exec("CREATE INDEX ix_campaigns_proof_week_seq ON campaigns_proof_records (campaign_id, week_id, seq)").Error; err != nil {
			return err
		}
		return tx.Exec("DROP INDEX idx_campaigns_proof_records_week_id").Error
	},
	Rollback: func(tx *gorm.DB) error {
		if err := tx.Exec("CREATE INDEX idx_campaigns_proof_records_week_id ON campaigns_proof_records (week_id)").Error; err != nil {
			return err
		}
		if err := tx.Exec("DROP INDEX ix_campaigns_proof_week_seq").Error; err != nil {
			return err
		}
		return tx.Migrator().DropColumn(&proofRecord0007{}, "WeekRecord")
	},
}

// proofRecord0007 is the column campaigns-0007 added.
type proofRecord0007 struct {
	WeekRecord int64 `gorm:"not null;default:0"`
}

func (proofRecord0007) TableName() string { return "campaigns_proof_records" }

// The rows as campaigns-0005 created them.
type proofRecord0005 struct {
	ID         string `gorm:"primaryKey;size:36"`
	CampaignID string `gorm:"size:36;not null;uniqueIndex:ux_campaigns_proof_seq,priority:1"`
	Seq        int64  `gorm:"not null;uniqueIndex:ux_campaigns_proof_seq,priority:2"`
	WeekID     string `gorm:"size:36;not null;index"`
	Code       string `gorm:"size:12;not null"`
	CodeHash   string `gorm:"size:64;not null;uniqueIndex"`
	Canonical  string `gorm:"type:text;not null"`
	Hash       string `gorm:"size:64;not null"`
	Signature  string `gorm:"size:100;not null"`
	ProofKeys  string `gorm:"type:text;not null"`
}

func (proofRecord0005) TableName() string { return "campaigns_proof_records" }

type proofFile0005 struct {
	FileKey string `gorm:"primaryKey;size:300"`
	SHA256  string `gorm:"column:sha256;size:64;not null"`
}

func (proofFile0005) TableName() string { return "campaigns_proof_files" }

// LastProofRecord returns the campaign's newest record (nil when the chain is empty) and the
// week's newest record (nil when the week has none).
func (s *Store) LastProofRecords(ctx context.Context, campaignID, weekID string) (last, ofWeek *ProofRecord, err error) {
	var rows []ProofRecord
	if err := s.conn(ctx).Where("campaign_id = ?", campaignID).Order("seq DESC").Limit(1).Find(&rows).Error; err != nil {
		return nil, nil, err
	}
	if len(rows) == 0 {
		return nil, nil, nil
	}
	last = &rows[0]
	if last.WeekID == weekID {
		return last, last, nil
	}
	rows = nil
	if err := s.conn(ctx).Where("campaign_id = ? AND week_id = ?", campaignID, weekID).Order("seq DESC").Limit(1).Find(&rows).Error; err != nil {
		return nil, nil, err
	}
	if len(rows) > 0 {
		ofWeek = &rows[0]
	}
	return last, ofWeek, nil
}

// WeekHeads returns the newest record of each week in the campaign's chain, in seq order. It reads
// the campaign's week heads (one row a week, by primary key, kept by the append) and then those
// records by (campaign, seq): two index reads a week, whatever the chain's length. (campaigns-0007
// found them with a loose index scan of the chain, whose median doubled on PostgreSQL with a year
// of batch records: docs/screens.md "Pages with a year of plays".)
func (s *Store) WeekHeads(ctx context.Context, campaignID string) ([]ProofRecord, error) {
	var seqs []int64
	if err := s.conn(ctx).Model(&ProofWeekHead{}).Where("campaign_id = ?", campaignID).Pluck("seq", &seqs).Error; err != nil {
		return nil, err
	}
	out := make([]ProofRecord, 0, len(seqs))
	for start := 0; start < len(seqs); start += 500 {
		var rows []ProofRecord
		if err := s.conn(ctx).Where("campaign_id = ? AND seq IN ?", campaignID, seqs[start:min(start+500, len(seqs))]).Find(&rows).Error; err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	slices.SortFunc(out, func(x, y ProofRecord) int { return cmp.Compare(x.Seq, y.Seq) })
	return out, nil
}

// ProofRecordByCodeHash returns the record whose code hashes to h.
func (s *Store) ProofRecordByCodeHash(ctx context.Context, h string) (*ProofRecord, error) {
	var r ProofRecord
	if err := s.conn(ctx).Where("code_hash = ?", h).Take(&r).Error; err != nil {
		return nil, err
	}
	return &r, nil
}

// ProofChain returns the campaign's records with seq up to upTo (0: all), in seq order.
func (s *Store) ProofChain(ctx context.Context, campaignID string, upTo int64) ([]ProofRecord, error) {
	var out []ProofRecord
	q := s.conn(ctx).Where("campaign_id = ?", campaignID)
	if upTo > 0 {
		q = q.Where("seq <= ?", upTo)
	}
	err := q.Order("seq").Find(&out).Error
	return out, err
}

// NextProofRecordOfWeek returns the week's first record after seq (the one that replaces it), nil
// when there is none.
func (s *Store) NextProofRecordOfWeek(ctx context.Context, campaignID, weekID string, seq int64) (*ProofRecord, error) {
	var rows []ProofRecord
	err := s.conn(ctx).Where("campaign_id = ? AND week_id = ? AND seq > ?", campaignID, weekID, seq).Order("seq").Limit(1).Find(&rows).Error
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return &rows[0], nil
}

// ProofFileHashes returns the known digests of these file keys.
func (s *Store) ProofFileHashes(ctx context.Context, keys []string) (map[string]string, error) {
	out := map[string]string{}
	for start := 0; start < len(keys); start += 500 {
		var rows []ProofFile
		if err := s.conn(ctx).Where("file_key IN ?", keys[start:min(start+500, len(keys))]).Find(&rows).Error; err != nil {
			return nil, err
		}
		for _, r := range rows {
			out[r.FileKey] = r.SHA256
		}
	}
	return out, nil
}

// SaveProofFileHash records a file's digest; a second save of the same key is a no-op.
func (s *Store) SaveProofFileHash(ctx context.Context, key, sum string) error {
	// ON CONFLICT DO NOTHING rather than catching the duplicate: inside a PostgreSQL transaction
	// a failed insert would abort the whole transaction.
	return s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&ProofFile{FileKey: key, SHA256: sum}).Error
}
