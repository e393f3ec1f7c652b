// Package store holds the partner program's rows and queries (tables prefixed partners_).
package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/dates"
	"marquee/platform/db"
)

// Partner is a company of type ambassador or certified, with its referral code, its hub profile
// and two running totals kept in the transactions that change them (the special-users grid sorts
// on them without aggregating the bonuses).
type Partner struct {
	ID         string `gorm:"primaryKey;size:36"` // the company id
	Type       string `gorm:"size:16;not null"`
	PromoID    string `gorm:"size:36;not null;default:''"`
	PromoCode  string `gorm:"size:32;not null;default:'';index"`
	Website    string `gorm:"size:200;not null;default:''"`
	About      string `gorm:"size:1000;not null;default:''"`
	Phone      string `gorm:"size:32;not null;default:''"`
	Linked     int    `gorm:"not null;default:0;index"`
	TotalBonus int64  `gorm:"not null;default:0;index"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

func (Partner) TableName() string { return "partners_partners" }

// Link ties a client company to its partner from Started to Expiration (both included). A client
// has at most one link: it keeps its first partner.
type Link struct {
	ID            string     `gorm:"primaryKey;size:36"`
	PartnerID     string     `gorm:"size:36;not null;index:partners_links_partner,priority:1"`
	ClientID      string     `gorm:"size:36;not null;uniqueIndex"`
	Source        string     `gorm:"size:16;not null"` // invite or referral
	InvitedUserID string     `gorm:"size:36;not null;default:''"`
	Started       dates.Date `gorm:"type:date;not null"`
	Expiration    dates.Date `gorm:"type:date;not null"`
	CreatedAt     time.Time  `gorm:"index:partners_links_partner,priority:2"`
}

func (Link) TableName() string { return "partners_links" }

// Redemption is a redemption of a partner's referral code; Linked says whether it linked the client.
type Redemption struct {
	ID        string `gorm:"primaryKey;size:36"`
	PartnerID string `gorm:"size:36;not null;index:partners_redemptions_partner,priority:1"`
	ClientID  string `gorm:"size:36;not null"`
	PromoID   string `gorm:"size:36;not null"`
	Amount    int64  `gorm:"not null"`
	Linked    bool   `gorm:"not null"`
	// CardFingerprint is the card on file that earned the referral credit: one credit per card,
	// across all companies (a unique index where it is set; DESIGN §1.13).
	CardFingerprint string    `gorm:"size:64;not null;default:''"`
	CreatedAt       time.Time `gorm:"index:partners_redemptions_partner,priority:2"`
}

func (Redemption) TableName() string { return "partners_redemptions" }

// BonusEntry is one billing event that moved a bonus: a settled charge (positive amount) or a
// refund of one (negative). The transaction id as primary key makes a replayed event a no-op.
type BonusEntry struct {
	TransactionID string `gorm:"primaryKey;size:36"`
	ChargeID      string `gorm:"size:36;not null;index"` // the charge itself, or the refunded charge
	BonusID       string `gorm:"size:36;not null"`
	Amount        int64  `gorm:"not null"`
	// Bonus is the signed cents this entry moved (a charge: round(amount × rate); a refund: the
	// change of its charge's rounded bonus), and RateBP the charge's rate: a bonus total is the sum
	// of per-charge cents.
	Bonus     int64 `gorm:"not null;default:0"`
	RateBP    int   `gorm:"not null;default:0"`
	CreatedAt time.Time
}

func (BonusEntry) TableName() string { return "partners_bonus_entries" }

// Bonus is what a partner earned on one client's campaign in one month: the net billed amount and
// the bonus, which is always the sum of its entries' bonuses (per-charge cents). RateBP is the rate
// of the row's first charge (a later charge may earn another rate; each entry keeps its own).
type Bonus struct {
	ID          string `gorm:"primaryKey;size:36"`
	PartnerID   string `gorm:"size:36;not null;uniqueIndex:partners_bonuses_key,priority:1;index:partners_bonuses_month,priority:1"`
	ClientID    string `gorm:"size:36;not null;uniqueIndex:partners_bonuses_key,priority:2"`
	CampaignRef string `gorm:"size:36;not null;uniqueIndex:partners_bonuses_key,priority:3"`
	Year        int    `gorm:"not null;uniqueIndex:partners_bonuses_key,priority:4;index:partners_bonuses_month,priority:2"`
	Month       int    `gorm:"not null;uniqueIndex:partners_bonuses_key,priority:5;index:partners_bonuses_month,priority:3"`
	RateBP      int    `gorm:"not null"`
	Billed      int64  `gorm:"not null"`
	Bonus       int64  `gorm:"not null"`
	Charges     int    `gorm:"not null"`
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

func (Bonus) TableName() string { return "partners_bonuses" }

// Certificate is a user's exam certificate.
type Certificate struct {
	UserID    string     `gorm:"primaryKey;size:36"`
	CompanyID string     `gorm:"size:36;not null"`
	Number    string     `gorm:"size:32;not null;uniqueIndex"`
	IssuedOn  dates.Date `gorm:"type:date;not null"`
	PromoCode string     `gorm:"size:32;not null"`
	Score     int        `gorm:"not null"`
	CreatedAt time.Time
}

func (Certificate) TableName() string { return "partners_certificates" }

// Flag is a charge that earned no bonus because it was paid with a card the partner's company (or
// its own partner) ever saved: held for an admin's review (DESIGN §1.13).
type Flag struct {
	ID            string    `gorm:"primaryKey;size:36"`
	TransactionID string    `gorm:"size:36;not null;uniqueIndex"`
	PartnerID     string    `gorm:"size:36;not null;index:partners_flags_partner,priority:1"`
	ClientID      string    `gorm:"size:36;not null"`
	CampaignRef   string    `gorm:"size:36;not null;default:''"`
	Amount        int64     `gorm:"not null"`
	Reason        string    `gorm:"size:32;not null"`
	CreatedAt     time.Time `gorm:"index:partners_flags_partner,priority:2"`
}

func (Flag) TableName() string { return "partners_flags" }

// ExamAttempt is one graded exam submission; a user has at most ExamAttemptsPerDay a business day.
type ExamAttempt struct {
	ID        string     `gorm:"primaryKey;size:36"`
	UserID    string     `gorm:"size:36;not null;index:partners_exam_attempts_day,priority:1"`
	Day       dates.Date `gorm:"type:date;not null;index:partners_exam_attempts_day,priority:2"`
	Score     int        `gorm:"not null"`
	Passed    bool       `gorm:"not null"`
	CreatedAt time.Time
}

func (ExamAttempt) TableName() string { return "partners_exam_attempts" }

// ExamReward is the one $100 promo a certified company receives, ever, from the first of its users
// to pass the exam (the primary key keeps it to one).
type ExamReward struct {
	CompanyID string `gorm:"primaryKey;size:36"`
	UserID    string `gorm:"size:36;not null"`
	PromoCode string `gorm:"size:32;not null"`
	CreatedAt time.Time
}

func (ExamReward) TableName() string { return "partners_exam_rewards" }

// Migrations create the partner program's tables. Each creates its tables from its own snapshot of
// the rows, so a later change to a row never changes what it does.
func Migrations() []*db.Migration {
	return []*db.Migration{{
		ID: "partners-0001-partners-links-bonuses-certificates",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&partner0001{}, &link0001{}, &redemption0001{}, &bonusEntry0001{}, &bonus0001{}, &certificate0001{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("partners_certificates", "partners_bonuses", "partners_bonus_entries",
				"partners_redemptions", "partners_links", "partners_partners")
		},
	}, {
		// The partner money rules: one referral credit per card, per-charge bonus cents (a bonus
		// total is the sum of rounded per-charge bonuses), flagged charges, exam attempts and the
		// company's one exam reward.
		ID: "partners-0002-money-rules",
		Migrate: func(tx *gorm.DB) error {
			type redemption0002 struct {
				CardFingerprint string `gorm:"size:64;not null;default:''"`
			}
			type entry0002 struct {
				Bonus  int64 `gorm:"not null;default:0"`
				RateBP int   `gorm:"not null;default:0"`
			}
			// A database made while partners-0001 created its tables from the live rows has these
			// columns already.
			if m := tx.Table("partners_redemptions").Migrator(); !m.HasColumn(&redemption0002{}, "CardFingerprint") {
				if err := m.AddColumn(&redemption0002{}, "CardFingerprint"); err != nil {
					return err
				}
			}
			if err := tx.Exec("CREATE UNIQUE INDEX partners_redemptions_card ON partners_redemptions (card_fingerprint) WHERE card_fingerprint <> ''").Error; err != nil {
				return err
			}
			m := tx.Table("partners_bonus_entries").Migrator()
			for _, f := range []string{"Bonus", "RateBP"} {
				if !m.HasColumn(&entry0002{}, f) {
					if err := m.AddColumn(&entry0002{}, f); err != nil {
						return err
					}
				}
			}
			return tx.Migrator().CreateTable(&flag0002{}, &examAttempt0002{}, &examReward0002{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("partners_exam_rewards", "partners_exam_attempts", "partners_flags")
		},
	}}
}

// The rows as partners-0001 created them (the card fingerprint and the bonus cents came with
// partners-0002).
type partner0001 struct {
	ID         string `gorm:"primaryKey;size:36"`
	Type       string `gorm:"size:16;not null"`
	PromoID    string `gorm:"size:36;not null;default:''"`
	PromoCode  string `gorm:"size:32;not null;default:'';index"`
	Website    string `gorm:"size:200;not null;default:''"`
	About      string `gorm:"size:1000;not null;default:''"`
	Phone      string `gorm:"size:32;not null;default:''"`
	Linked     int    `gorm:"not null;default:0;index"`
	TotalBonus int64  `gorm:"not null;default:0;index"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

func (partner0001) TableName() string { return "partners_partners" }

type link0001 struct {
	ID            string     `gorm:"primaryKey;size:36"`
	PartnerID     string     `gorm:"size:36;not null;index:partners_links_partner,priority:1"`
	ClientID      string     `gorm:"size:36;not null;uniqueIndex"`
	Source        string     `gorm:"size:16;not null"`
	InvitedUserID string     `gorm:"size:36;not null;default:''"`
	Started       dates.Date `gorm:"type:date;not null"`
	Expiration    dates.Date `gorm:"type:date;not null"`
	CreatedAt     time.Time  `gorm:"index:partners_links_partner,priority:2"`
}

func (link0001) TableName() string { return "partners_links" }

type redemption0001 struct {
	ID        string    `gorm:"primaryKey;size:36"`
	PartnerID string    `gorm:"size:36;not null;index:partners_redemptions_partner,priority:1"`
	ClientID  string    `gorm:"size:36;not null"`
	PromoID   string    `gorm:"size:36;not null"`
	Amount    int64     `gorm:"not null"`
	Linked    bool      `gorm:"not null"`
	CreatedAt time.Time `gorm:"index:partners_redemptions_partner,priority:2"`
}

func (redemption0001) TableName() string { return "partners_redemptions" }

type bonusEntry0001 struct {
	TransactionID string `gorm:"primaryKey;size:36"`
	ChargeID      string `gorm:"size:36;not null;index"`
	BonusID       string `gorm:"size:36;not null"`
	Amount        int64  `gorm:"not null"`
	CreatedAt     time.Time
}

func (bonusEntry0001) TableName() string { return "partners_bonus_entries" }

type bonus0001 struct {
	ID          string `gorm:"primaryKey;size:36"`
	PartnerID   string `gorm:"size:36;not null;uniqueIndex:partners_bonuses_key,priority:1;index:partners_bonuses_month,priority:1"`
	ClientID    string `gorm:"size:36;not null;uniqueIndex:partners_bonuses_key,priority:2"`
	CampaignRef string `gorm:"size:36;not null;uniqueIndex:partners_bonuses_key,priority:3"`
	Year        int    `gorm:"not null;uniqueIndex:partners_bonuses_key,priority:4;index:partners_bonuses_month,priority:2"`
	Month       int    `gorm:"not null;uniqueIndex:partners_bonuses_key,priority:5;index:partners_bonuses_month,priority:3"`
	RateBP      int    `gorm:"not null"`
	Billed      int64  `gorm:"not null"`
	Bonus       int64  `gorm:"not null"`
	Charges     int    `gorm:"not null"`
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

func (bonus0001) TableName() string { return "partners_bonuses" }

type certificate0001 struct {
	UserID    string     `gorm:"primaryKey;size:36"`
	CompanyID string     `gorm:"size:36;not null"`
	Number    string     `gorm:"size:32;not null;uniqueIndex"`
	IssuedOn  dates.Date `gorm:"type:date;not null"`
	PromoCode string     `gorm:"size:32;not null"`
	Score     int        `gorm:"not null"`
	CreatedAt time.Time
}

func (certificate0001) TableName() string { return "partners_certificates" }

// The rows partners-0002 created.
type flag0002 struct {
	ID            string    `gorm:"primaryKey;size:36"`
	TransactionID string    `gorm:"size:36;not null;uniqueIndex"`
	PartnerID     string    `gorm:"size:36;not null;index:partners_flags_partner,priority:1"`
	ClientID      string    `gorm:"size:36;not null"`
	CampaignRef   string    `gorm:"size:36;not null;default:''"`
	Amount        int64     `gorm:"not null"`
	Reason        string    `gorm:"size:32;not null"`
	CreatedAt     time.Time `gorm:"index:partners_flags_partner,priority:2"`
}

func (flag0002) TableName() string { return "partners_flags" }

type examAttempt0002 struct {
	ID        string     `gorm:"primaryKey;size:36"`
	UserID    string     `gorm:"size:36;not null;index:partners_exam_attempts_day,priority:1"`
	Day       dates.Date `gorm:"type:date;not null;index:partners_exam_attempts_day,priority:2"`
	Score     int        `gorm:"not null"`
	Passed    bool       `gorm:"not null"`
	CreatedAt time.Time
}

func (examAttempt0002) TableName() string { return "partners_exam_attempts" }

type examReward0002 struct {
	CompanyID string `gorm:"primaryKey;size:36"`
	UserID    string `gorm:"size:36;not null"`
	PromoCode string `gorm:"size:32;not null"`
	CreatedAt time.Time
}

func (examReward0002) TableName() string { return "partners_exam_rewards" }

// Store runs the partner program's queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

// conn is the caller's transaction or the database.
func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// Create inserts a row.
func (s *Store) Create(ctx context.Context, row any) error { return s.conn(ctx).Create(row).Error }

// PartnerByID returns a partner, or gorm.ErrRecordNotFound.
func (s *Store) PartnerByID(ctx context.Context, id string) (*Partner, error) {
	var p Partner
	err := s.conn(ctx).Where("id = ?", id).Take(&p).Error
	return &p, err
}

// PartnerByPromo returns the partner whose referral code the promo is, or gorm.ErrRecordNotFound.
func (s *Store) PartnerByPromo(ctx context.Context, promoID string) (*Partner, error) {
	var p Partner
	err := s.conn(ctx).Where("promo_id = ?", promoID).Take(&p).Error
	return &p, err
}

// UpdatePartner sets columns of a partner.
func (s *Store) UpdatePartner(ctx context.Context, id string, cols map[string]any) error {
	return s.conn(ctx).Model(&Partner{}).Where("id = ?", id).Updates(cols).Error
}

// LinkOfClient returns the client's link, or gorm.ErrRecordNotFound.
func (s *Store) LinkOfClient(ctx context.Context, clientID string) (*Link, error) {
	var l Link
	err := s.conn(ctx).Where("client_id = ?", clientID).Take(&l).Error
	return &l, err
}

// LinkByID returns a link, or gorm.ErrRecordNotFound.
func (s *Store) LinkByID(ctx context.Context, id string) (*Link, error) {
	var l Link
	err := s.conn(ctx).Where("id = ?", id).Take(&l).Error
	return &l, err
}

// EntryByTransaction returns the entry of a billing transaction, or gorm.ErrRecordNotFound.
func (s *Store) EntryByTransaction(ctx context.Context, id string) (*BonusEntry, error) {
	var e BonusEntry
	err := s.conn(ctx).Where("transaction_id = ?", id).Take(&e).Error
	return &e, err
}

// BonusForUpdate returns a bonus row, locked until the transaction ends, or gorm.ErrRecordNotFound.
func (s *Store) BonusForUpdate(ctx context.Context, partnerID, clientID, campaignRef string, year, month int) (*Bonus, error) {
	var b Bonus
	q := s.conn(ctx)
	if db.Dialect(s.db) == db.Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	err := q.Where("partner_id = ? AND client_id = ? AND campaign_ref = ? AND year = ? AND month = ?",
		partnerID, clientID, campaignRef, year, month).Take(&b).Error
	return &b, err
}

// BonusByIDForUpdate returns a bonus row by id, locked until the transaction ends.
func (s *Store) BonusByIDForUpdate(ctx context.Context, id string) (*Bonus, error) {
	var b Bonus
	q := s.conn(ctx)
	if db.Dialect(s.db) == db.Postgres {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	err := q.Where("id = ?", id).Take(&b).Error
	return &b, err
}

// SaveBonus updates a bonus row's amounts.
func (s *Store) SaveBonus(ctx context.Context, b *Bonus) error {
	return s.conn(ctx).Model(&Bonus{}).Where("id = ?", b.ID).Updates(map[string]any{
		"billed": b.Billed, "bonus": b.Bonus, "charges": b.Charges, "updated_at": b.UpdatedAt}).Error
}

// AddPartnerBonus moves a partner's running bonus total.
func (s *Store) AddPartnerBonus(ctx context.Context, partnerID string, delta int64) error {
	return s.conn(ctx).Model(&Partner{}).Where("id = ?", partnerID).
		Update("total_bonus", gorm.Expr("total_bonus + ?", delta)).Error
}

// AddPartnerLinked moves a partner's count of linked companies.
func (s *Store) AddPartnerLinked(ctx context.Context, partnerID string, delta int) error {
	return s.conn(ctx).Model(&Partner{}).Where("id = ?", partnerID).
		Update("linked", gorm.Expr("linked + ?", delta)).Error
}

// RefundedOf sums the refunds recorded against a charge so far.
func (s *Store) RefundedOf(ctx context.Context, chargeID string) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&BonusEntry{}).Select("COALESCE(SUM(-amount), 0)").
		Where("charge_id = ? AND transaction_id <> ?", chargeID, chargeID).Scan(&n).Error
	return n, err
}

// CardRedeemed reports whether a referral credit was granted for this card fingerprint.
func (s *Store) CardRedeemed(ctx context.Context, fingerprint string) (bool, error) {
	var n int64
	err := s.conn(ctx).Model(&Redemption{}).Where("card_fingerprint = ?", fingerprint).Count(&n).Error
	return n > 0, err
}

// AttemptsOn counts the user's graded exam attempts on a business day.
func (s *Store) AttemptsOn(ctx context.Context, userID string, day dates.Date) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&ExamAttempt{}).Where("user_id = ? AND day = ?", userID, day).Count(&n).Error
	return n, err
}

// RewardOf returns the company's exam reward, or gorm.ErrRecordNotFound.
func (s *Store) RewardOf(ctx context.Context, companyID string) (*ExamReward, error) {
	var r ExamReward
	err := s.conn(ctx).Where("company_id = ?", companyID).Take(&r).Error
	return &r, err
}

// FlagCounts counts the flagged charges of these partners.
func (s *Store) FlagCounts(ctx context.Context, partnerIDs []string) (map[string]int, error) {
	var rows []struct {
		PartnerID string
		N         int
	}
	out := map[string]int{}
	if len(partnerIDs) == 0 {
		return out, nil
	}
	err := s.conn(ctx).Model(&Flag{}).Select("partner_id, COUNT(*) AS n").Where("partner_id IN ?", partnerIDs).Group("partner_id").Scan(&rows).Error
	for _, r := range rows {
		out[r.PartnerID] = r.N
	}
	return out, err
}

// Flags lists the flagged charges, newest first (at most limit).
func (s *Store) Flags(ctx context.Context, limit int) ([]Flag, error) {
	var out []Flag
	err := s.conn(ctx).Order("created_at DESC, id DESC").Limit(limit).Find(&out).Error
	return out, err
}

// MonthStat is one month of a partner's statistics (B §3 Monthly statistic).
type MonthStat struct {
	Year, Month   int
	CampaignCount int
	TotalBilled   int64
	TotalBonus    int64
	TotalCampaign int
}

// MonthlyStats aggregates a partner's bonuses of one year by month, in one query over the
// partners_bonuses_month index.
func (s *Store) MonthlyStats(ctx context.Context, partnerID string, year int) ([]MonthStat, error) {
	var out []MonthStat
	err := s.conn(ctx).Model(&Bonus{}).
		Select("year, month, COUNT(DISTINCT campaign_ref) AS campaign_count, SUM(billed) AS total_billed, SUM(bonus) AS total_bonus, SUM(charges) AS total_campaign").
		Where("partner_id = ? AND year = ?", partnerID, year).Group("year, month").Order("month ASC").Scan(&out).Error
	return out, err
}
