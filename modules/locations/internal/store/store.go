// Package store holds the locations module's tables and queries (docs/inventory.md describes the
// model). It is internal: no other module can reach these rows.
package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"marquee/platform/dates"
	"marquee/platform/db"
	"marquee/platform/money"
)

// Market is a row of locations_markets.
type Market struct {
	ID        string  `gorm:"primaryKey;size:36"`
	Name      string  `gorm:"size:100;not null;uniqueIndex"`
	CenterLat float64 `gorm:"not null"`
	CenterLng float64 `gorm:"not null"`
	Zoom      int     `gorm:"not null"`
	Fixed     bool    `gorm:"not null;default:false"`
}

func (Market) TableName() string { return "locations_markets" }

// City is a row of locations_cities.
type City struct {
	ID         string  `gorm:"primaryKey;size:36"`
	MarketID   string  `gorm:"size:36;not null;uniqueIndex:locations_cities_market_name"`
	Name       string  `gorm:"size:100;not null;uniqueIndex:locations_cities_market_name"`
	State      string  `gorm:"size:2;not null"`
	Lat        float64 `gorm:"not null"`
	Lng        float64 `gorm:"not null"`
	Population int64   `gorm:"not null"`
}

func (City) TableName() string { return "locations_cities" }

// Face is a row of locations_faces: one billboard face. Market and City are names (markets are
// reference data; the name is what every query filters on). BasePrice, BaseOoh and BaseSpots are the
// week values used when a week has no inventory row.
type Face struct {
	ID                    string      `gorm:"primaryKey;size:36"`
	MarketID              string      `gorm:"size:36;not null"`
	Market                string      `gorm:"size:100;not null;index:locations_faces_market_city"`
	City                  string      `gorm:"size:100;not null;index:locations_faces_market_city"`
	LocationName          string      `gorm:"size:200;not null;index"`
	Face                  string      `gorm:"size:16;not null"`
	Lat                   float64     `gorm:"not null;index:locations_faces_lat_lng"`
	Lng                   float64     `gorm:"not null;index:locations_faces_lat_lng"`
	OtherFaceID           string      `gorm:"size:36;not null;default:''"`
	Likely                bool        `gorm:"not null;default:true"`
	ExcludeMaximizeBudget bool        `gorm:"not null;default:false"`
	AdRotationFrequency   int         `gorm:"not null"`
	AdSpotDuration        int         `gorm:"not null"`
	Snapshot              string      `gorm:"size:255;not null;default:''"`
	NewSnapshot           string      `gorm:"size:255;not null;default:''"`
	BasePrice             money.Cents `gorm:"not null"`
	BaseOoh               int64       `gorm:"not null"`
	BaseSpots             int         `gorm:"not null"`
	CreatedAt             time.Time   `gorm:"not null"`
}

func (Face) TableName() string { return "locations_faces" }

// Inventory is a row of locations_inventory: a face's explicit values for one week. A week without a
// row takes the face's base values (vendor tier 1, no min_value_2).
type Inventory struct {
	FaceID         string      `gorm:"primaryKey;size:36"`
	Week           dates.Date  `gorm:"primaryKey"`
	AvailableSpots int         `gorm:"not null"`
	MinValue       money.Cents `gorm:"not null"`
	MinValue2      money.Cents `gorm:"not null;default:0"`
	VendorTier     int         `gorm:"not null;default:1"`
	Ooh            int64       `gorm:"not null"`
}

func (Inventory) TableName() string { return "locations_inventory" }

// Spot is a row of locations_spots: one sold (active) or held (reserved) spot. The unique index on
// (face_id, week, slot) is what makes overbooking impossible (DESIGN.md §4).
type Spot struct {
	ID        string      `gorm:"primaryKey;size:36"`
	FaceID    string      `gorm:"size:36;not null;uniqueIndex:locations_spots_face_week_slot,priority:1"`
	Week      dates.Date  `gorm:"not null;uniqueIndex:locations_spots_face_week_slot,priority:2;index:locations_spots_week_face,priority:1"`
	Slot      int         `gorm:"not null;uniqueIndex:locations_spots_face_week_slot,priority:3"`
	Status    string      `gorm:"size:16;not null"`
	CompanyID string      `gorm:"size:36;not null;index:locations_spots_company_ref,priority:1;index:locations_spots_company_key,priority:1"`
	Ref       string      `gorm:"size:100;not null;default:'';index:locations_spots_company_ref,priority:2"`
	Key       string      `gorm:"column:reservation_key;size:100;not null;index:locations_spots_company_key,priority:2"`
	ExpiresAt *time.Time  `gorm:"index"`
	Price     money.Cents `gorm:"not null"`
	Ooh       int64       `gorm:"not null"`
	CreatedAt time.Time   `gorm:"not null"`
}

func (Spot) TableName() string { return "locations_spots" }

// Reservation is a row of locations_reservations: the caller key of a Book or Hold, so a repeated
// call answers the earlier result.
type Reservation struct {
	CompanyID   string    `gorm:"primaryKey;size:36"`
	Key         string    `gorm:"column:reservation_key;primaryKey;size:100"`
	Kind        string    `gorm:"size:8;not null"`
	Fingerprint string    `gorm:"size:64;not null"`
	CreatedAt   time.Time `gorm:"not null"`
}

func (Reservation) TableName() string { return "locations_reservations" }

// Reservation kinds.
const (
	KindBook = "book"
	KindHold = "hold"
)

// Migrations of the locations tables. Never edit a landed migration; add one. seedMarkets fills the
// reference markets and cities in the second.
func Migrations(seedMarkets func(tx *gorm.DB) error) []*db.Migration {
	return []*db.Migration{{
		ID: "locations-0001-markets-faces-inventory-spots",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&Market{}, &City{}, &Face{}, &Inventory{}, &Spot{}, &Reservation{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("locations_reservations", "locations_spots", "locations_inventory", "locations_faces", "locations_cities", "locations_markets")
		},
	}, {
		ID:      "locations-0002-reference-markets",
		Migrate: seedMarkets,
		Rollback: func(tx *gorm.DB) error {
			if err := tx.Exec("DELETE FROM locations_cities").Error; err != nil {
				return err
			}
			return tx.Exec("DELETE FROM locations_markets").Error
		},
	}}
}

// Store runs the locations queries.
type Store struct{ db *gorm.DB }

// New returns the store.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb} }

func (s *Store) conn(ctx context.Context) *gorm.DB { return db.Conn(ctx, s.db) }

// Markets returns every market, by name.
func (s *Store) Markets(ctx context.Context) ([]Market, error) {
	var ms []Market
	err := s.conn(ctx).Order("name").Find(&ms).Error
	return ms, err
}

// Cities returns every city, by market and name.
func (s *Store) Cities(ctx context.Context) ([]City, error) {
	var cs []City
	err := s.conn(ctx).Order("market_id, name").Find(&cs).Error
	return cs, err
}

// InsertMarkets inserts markets and cities, keeping those that exist.
func InsertMarkets(tx *gorm.DB, ms []Market, cs []City) error {
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(ms, 200).Error; err != nil {
		return err
	}
	return tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(cs, 200).Error
}

// FacesQuery selects faces: by market names (none = all) and cities, or within a bounding box.
type FacesQuery struct {
	Markets []string
	Cities  []string
	Box     *Box
}

// Box is a latitude/longitude rectangle.
type Box struct{ MinLat, MaxLat, MinLng, MaxLng float64 }

// Faces returns the faces of the query, by market, city and location name.
func (s *Store) Faces(ctx context.Context, q FacesQuery) ([]Face, error) {
	tx := s.conn(ctx).Model(&Face{})
	if len(q.Markets) > 0 {
		tx = tx.Where("market IN ?", q.Markets)
	}
	if len(q.Cities) > 0 {
		tx = tx.Where("city IN ?", q.Cities)
	}
	if q.Box != nil {
		tx = tx.Where("lat BETWEEN ? AND ? AND lng BETWEEN ? AND ?", q.Box.MinLat, q.Box.MaxLat, q.Box.MinLng, q.Box.MaxLng)
	}
	var fs []Face
	err := tx.Order("market, city, location_name, id").Find(&fs).Error
	return fs, err
}

// FacesByIDs returns the faces with these ids.
func (s *Store) FacesByIDs(ctx context.Context, ids []string) ([]Face, error) {
	var fs []Face
	if len(ids) == 0 {
		return fs, nil
	}
	for _, chunk := range chunks(ids, 500) {
		var part []Face
		if err := s.conn(ctx).Where("id IN ?", chunk).Find(&part).Error; err != nil {
			return nil, err
		}
		fs = append(fs, part...)
	}
	return fs, nil
}

// CountFaces counts every face.
func (s *Store) CountFaces(ctx context.Context) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&Face{}).Count(&n).Error
	return n, err
}

// InsertFaces inserts faces, inventory rows and spots in batches (seed and benchmarks).
func (s *Store) InsertFaces(ctx context.Context, faces []Face, inv []Inventory, spots []Spot) error {
	c := s.conn(ctx)
	if err := c.CreateInBatches(faces, 500).Error; err != nil {
		return err
	}
	if len(inv) > 0 {
		if err := c.CreateInBatches(inv, 500).Error; err != nil {
			return err
		}
	}
	if len(spots) > 0 {
		return c.CreateInBatches(spots, 500).Error
	}
	return nil
}

// WeekAvailability is one face's values in one week, with its live spots counted.
type WeekAvailability struct {
	FaceID         string
	AvailableSpots int
	MinValue       money.Cents
	MinValue2      money.Cents
	VendorTier     int
	Ooh            int64
	UsedSpots      int
}

// liveSpot is the condition of a spot that occupies its slot at now: active, or a hold not yet
// expired (an expired hold is free even before the job deletes it).
const liveSpot = "(status = 'active' OR expires_at > ?)"

// Availability answers the week's values of the faces matched by q in one statement: the inventory
// row or the face's base values, and the count of live spots.
func (s *Store) Availability(ctx context.Context, q FacesQuery, week dates.Date, now time.Time) ([]WeekAvailability, error) {
	tx := s.conn(ctx).Table("locations_faces AS f").
		Select(`f.id AS face_id,
			COALESCE(i.available_spots, f.base_spots) AS available_spots,
			COALESCE(i.min_value, f.base_price) AS min_value,
			COALESCE(i.min_value2, 0) AS min_value2,
			COALESCE(i.vendor_tier, 1) AS vendor_tier,
			COALESCE(i.ooh, f.base_ooh) AS ooh,
			COALESCE(u.used, 0) AS used_spots`).
		Joins("LEFT JOIN locations_inventory AS i ON i.face_id = f.id AND i.week = ?", week).
		Joins("LEFT JOIN (SELECT face_id, COUNT(*) AS used FROM locations_spots WHERE week = ? AND "+liveSpot+" GROUP BY face_id) AS u ON u.face_id = f.id", week, now)
	if len(q.Markets) > 0 {
		tx = tx.Where("f.market IN ?", q.Markets)
	}
	if len(q.Cities) > 0 {
		tx = tx.Where("f.city IN ?", q.Cities)
	}
	var out []WeekAvailability
	err := tx.Scan(&out).Error
	return out, err
}

// InventoryOf returns the explicit inventory rows of the faces between two weeks, inclusive.
func (s *Store) InventoryOf(ctx context.Context, faceIDs []string, from, to dates.Date) ([]Inventory, error) {
	var out []Inventory
	for _, chunk := range chunks(faceIDs, 500) {
		var part []Inventory
		if err := s.conn(ctx).Where("face_id IN ? AND week BETWEEN ? AND ?", chunk, from, to).Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// LiveSpotsOf returns the live spots of the faces between two weeks, inclusive.
func (s *Store) LiveSpotsOf(ctx context.Context, faceIDs []string, from, to dates.Date, now time.Time) ([]Spot, error) {
	var out []Spot
	for _, chunk := range chunks(faceIDs, 500) {
		var part []Spot
		if err := s.conn(ctx).Where("face_id IN ? AND week BETWEEN ? AND ? AND "+liveSpot, chunk, from, to, now).Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// DeleteExpiredHolds deletes the holds expired at now (of the faces, or all when faceIDs is nil).
func (s *Store) DeleteExpiredHolds(ctx context.Context, faceIDs []string, now time.Time) (int64, error) {
	tx := s.conn(ctx).Where("status = ? AND expires_at <= ?", "reserved", now)
	if faceIDs != nil {
		var n int64
		for _, chunk := range chunks(faceIDs, 500) {
			res := tx.Session(&gorm.Session{}).Where("face_id IN ?", chunk).Delete(&Spot{})
			if res.Error != nil {
				return n, res.Error
			}
			n += res.RowsAffected
		}
		return n, nil
	}
	res := tx.Delete(&Spot{})
	return res.RowsAffected, res.Error
}

// TryInsertSpot inserts the spot unless its (face, week, slot) is taken, and says whether it did.
// ON CONFLICT DO NOTHING keeps a PostgreSQL transaction usable after a lost race for the slot, and a
// concurrent insert of the same slot waits for the other transaction before deciding.
func (s *Store) TryInsertSpot(ctx context.Context, sp *Spot) (bool, error) {
	res := s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(sp)
	return res.RowsAffected == 1, res.Error
}

// Reservation returns the company's reservation under the key, or gorm.ErrRecordNotFound.
func (s *Store) Reservation(ctx context.Context, companyID, key string) (*Reservation, error) {
	var r Reservation
	if err := s.conn(ctx).Where("company_id = ? AND reservation_key = ?", companyID, key).Take(&r).Error; err != nil {
		return nil, err
	}
	return &r, nil
}

// TryInsertReservation inserts the reservation unless the key is taken, and says whether it did.
func (s *Store) TryInsertReservation(ctx context.Context, r *Reservation) (bool, error) {
	res := s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(r)
	return res.RowsAffected == 1, res.Error
}

// SpotsByKey returns the company's spots under the key, by face and week.
func (s *Store) SpotsByKey(ctx context.Context, companyID, key string) ([]Spot, error) {
	var out []Spot
	err := s.conn(ctx).Where("company_id = ? AND reservation_key = ?", companyID, key).Order("face_id, week").Find(&out).Error
	return out, err
}

// ActivateKey makes the company's held spots under the key active.
func (s *Store) ActivateKey(ctx context.Context, companyID, key string) error {
	return s.conn(ctx).Model(&Spot{}).Where("company_id = ? AND reservation_key = ? AND status = ?", companyID, key, "reserved").
		Updates(map[string]any{"status": "active", "expires_at": nil}).Error
}

// DeleteByKey deletes the company's spots under the key.
func (s *Store) DeleteByKey(ctx context.Context, companyID, key string) (int64, error) {
	res := s.conn(ctx).Where("company_id = ? AND reservation_key = ?", companyID, key).Delete(&Spot{})
	return res.RowsAffected, res.Error
}

// LiveSpotsByRefs returns the company's live spots under the references.
func (s *Store) LiveSpotsByRefs(ctx context.Context, companyID string, refs []string, now time.Time) ([]Spot, error) {
	var out []Spot
	err := s.conn(ctx).Where("company_id = ? AND ref IN ? AND "+liveSpot, companyID, refs, now).Order("ref, face_id, week").Find(&out).Error
	return out, err
}

// LiveSpotsOfCompany returns the company's live spots, on faces of the markets (none = all).
func (s *Store) LiveSpotsOfCompany(ctx context.Context, companyID string, markets []string, now time.Time) ([]Spot, error) {
	tx := s.conn(ctx).Where("company_id = ? AND "+liveSpot, companyID, now)
	if len(markets) > 0 {
		tx = tx.Where("face_id IN (?)", s.conn(ctx).Model(&Face{}).Select("id").Where("market IN ?", markets))
	}
	var out []Spot
	err := tx.Order("face_id, week").Find(&out).Error
	return out, err
}

// CompanySpot returns the company's spot, or gorm.ErrRecordNotFound.
func (s *Store) CompanySpot(ctx context.Context, companyID, id string) (*Spot, error) {
	var sp Spot
	if err := s.conn(ctx).Where("company_id = ? AND id = ?", companyID, id).Take(&sp).Error; err != nil {
		return nil, err
	}
	return &sp, nil
}

// ActivateSpot makes a spot active.
func (s *Store) ActivateSpot(ctx context.Context, id string) error {
	return s.conn(ctx).Model(&Spot{}).Where("id = ?", id).Updates(map[string]any{"status": "active", "expires_at": nil}).Error
}

// DeleteSpot deletes a spot.
func (s *Store) DeleteSpot(ctx context.Context, id string) error {
	return s.conn(ctx).Where("id = ?", id).Delete(&Spot{}).Error
}

// CountByRef counts the company's spots under the reference.
func (s *Store) CountByRef(ctx context.Context, companyID, ref string) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&Spot{}).Where("company_id = ? AND ref = ?", companyID, ref).Count(&n).Error
	return n, err
}

// DeleteReservedByRef deletes the company's reserved spots under the reference.
func (s *Store) DeleteReservedByRef(ctx context.Context, companyID, ref string) (int64, error) {
	res := s.conn(ctx).Where("company_id = ? AND ref = ? AND status = ?", companyID, ref, "reserved").Delete(&Spot{})
	return res.RowsAffected, res.Error
}

func chunks(ids []string, n int) [][]string {
	var out [][]string
	for len(ids) > n {
		out = append(out, ids[:n])
		ids = ids[n:]
	}
	if len(ids) > 0 {
		out = append(out, ids)
	}
	return out
}
