// Package store holds the locations module's tables and queries (docs/inventory.md describes the
// model). It is internal: no other module can reach these rows.
package store

import (
	"context"
	"database/sql"
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

// Face is a row of locations_faces: one billboard face. The index locations_faces_availability
// covers the available-spots read (market, city, id and the base week values), so it never reads
// the table; locations_inventory_week and locations_spots_week_face do the same for the week. Market and City are names (markets are
// reference data; the name is what every query filters on). BasePrice, BaseOoh and BaseSpots are the
// week values used when a week has no inventory row.
type Face struct {
	ID                    string      `gorm:"primaryKey;size:36;index:locations_faces_availability,priority:3"`
	MarketID              string      `gorm:"size:36;not null"`
	Market                string      `gorm:"size:100;not null;index:locations_faces_market_city,priority:1;index:locations_faces_availability,priority:1"`
	City                  string      `gorm:"size:100;not null;index:locations_faces_market_city,priority:2;index:locations_faces_availability,priority:2"`
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
	BasePrice             money.Cents `gorm:"not null;index:locations_faces_availability,priority:5"`
	BaseOoh               int64       `gorm:"not null;index:locations_faces_availability,priority:6"`
	BaseSpots             int         `gorm:"not null;index:locations_faces_availability,priority:4"`
	CreatedAt             time.Time   `gorm:"not null"`
	FaceGeometry
	FaceHours
}

func (Face) TableName() string { return "locations_faces" }

// FaceGeometry is a face's physical size, pixels, viewing distance class and the photo with the
// screen's corners (issue 29). Corners is JSON: four [x, y] points in photo pixels, or empty.
type FaceGeometry struct {
	WidthFt       float64 `gorm:"not null;default:48"`
	HeightFt      float64 `gorm:"not null;default:14"`
	PixelWidth    int     `gorm:"not null;default:1400"`
	PixelHeight   int     `gorm:"not null;default:400"`
	DistanceClass string  `gorm:"size:16;not null;default:'arterial'"`
	Photo         string  `gorm:"size:255;not null;default:''"`
	PhotoWidth    int     `gorm:"not null;default:0"`
	PhotoHeight   int     `gorm:"not null;default:0"`
	PhotoCorners  string  `gorm:"size:200;not null;default:''"`
}

// Inventory is a row of locations_inventory: a face's explicit values for one week. A week without a
// row takes the face's base values (vendor tier 1, no min_value_2).
type Inventory struct {
	FaceID string     `gorm:"primaryKey;size:36;index:locations_inventory_week,priority:3"`
	Week   dates.Date `gorm:"primaryKey;index:locations_inventory_week,priority:1"`
	// Market is the face's market, copied so that a market's week is one covering index range.
	Market         string      `gorm:"size:100;not null;index:locations_inventory_week,priority:2"`
	AvailableSpots int         `gorm:"not null;index:locations_inventory_week,priority:4"`
	MinValue       money.Cents `gorm:"not null;index:locations_inventory_week,priority:5"`
	MinValue2      money.Cents `gorm:"not null;default:0;index:locations_inventory_week,priority:6"`
	VendorTier     int         `gorm:"not null;default:1;index:locations_inventory_week,priority:7"`
	Ooh            int64       `gorm:"not null;index:locations_inventory_week,priority:8"`
}

func (Inventory) TableName() string { return "locations_inventory" }

// Spot is a row of locations_spots: one sold (active) or held (reserved) spot. The unique index on
// (face_id, week, slot) is what makes overbooking impossible (DESIGN.md §4).
type Spot struct {
	ID     string     `gorm:"primaryKey;size:36"`
	FaceID string     `gorm:"size:36;not null;uniqueIndex:locations_spots_face_week_slot,priority:1;index:locations_spots_week_face,priority:3"`
	Week   dates.Date `gorm:"not null;uniqueIndex:locations_spots_face_week_slot,priority:2;index:locations_spots_week_face,priority:1"`
	// Market is the face's market, copied so that a market's week is one covering index range.
	Market    string      `gorm:"size:100;not null;index:locations_spots_week_face,priority:2"`
	Slot      int         `gorm:"not null;uniqueIndex:locations_spots_face_week_slot,priority:3"`
	Status    string      `gorm:"size:16;not null;index:locations_spots_week_face,priority:4"`
	CompanyID string      `gorm:"size:36;not null;index:locations_spots_company_ref,priority:1;index:locations_spots_company_key,priority:1"`
	Ref       string      `gorm:"size:100;not null;default:'';index:locations_spots_company_ref,priority:2"`
	Key       string      `gorm:"column:reservation_key;size:100;not null;index:locations_spots_company_key,priority:2"`
	ExpiresAt *time.Time  `gorm:"index;index:locations_spots_week_face,priority:5"`
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

// Catalogue is the one row of locations_catalogue: the version of faces and inventory rows, bumped
// by every change to them, so that readers may cache them (docs/inventory.md).
type Catalogue struct {
	ID      int   `gorm:"primaryKey;autoIncrement:false"`
	Version int64 `gorm:"not null"`
}

func (Catalogue) TableName() string { return "locations_catalogue" }

// Reservation kinds.
const (
	KindBook = "book"
	KindHold = "hold"
)

// Migrations of the locations tables. Never edit a landed migration; add one. reference gives the
// reference markets and cities the second inserts (the root package reads them from its embedded
// list); zoneOf gives a market's time zone for the faces locations-0005 finds. Each creates its tables from its own snapshot of the
// rows, so a later change to a row never changes what it does.
func Migrations(reference func() ([]Market, []City, error), zoneOf func(market string) string) []*db.Migration {
	return []*db.Migration{{
		ID: "locations-0001-markets-faces-inventory-spots",
		Migrate: func(tx *gorm.DB) error {
			return tx.Migrator().CreateTable(&market0001{}, &city0001{}, &face0001{}, &inventory0001{}, &spot0001{}, &reservation0001{})
		},
		Rollback: func(tx *gorm.DB) error {
			return tx.Migrator().DropTable("locations_reservations", "locations_spots", "locations_inventory", "locations_faces", "locations_cities", "locations_markets")
		},
	}, {
		ID: "locations-0002-reference-markets",
		Migrate: func(tx *gorm.DB) error {
			ms, cs, err := reference()
			if err != nil {
				return err
			}
			return insertMarkets(tx, ms, cs)
		},
		Rollback: func(tx *gorm.DB) error {
			if err := tx.Exec("DELETE FROM locations_cities").Error; err != nil {
				return err
			}
			return tx.Exec("DELETE FROM locations_markets").Error
		},
	}, {
		ID: "locations-0003-catalogue-version",
		Migrate: func(tx *gorm.DB) error {
			if err := tx.Migrator().CreateTable(&catalogue0003{}); err != nil {
				return err
			}
			return tx.Create(&catalogue0003{ID: 1, Version: 1}).Error
		},
		Rollback: func(tx *gorm.DB) error { return tx.Migrator().DropTable("locations_catalogue") },
	}, {
		// Faces gain their physical size, pixels, viewing distance class and photo corners; faces
		// that exist take the standard bulletin's values and no photo until an admin sets them.
		ID: "locations-0004-face-geometry",
		Migrate: func(tx *gorm.DB) error {
			for _, col := range face0004Columns {
				if err := tx.Migrator().AddColumn(&face0004{}, col); err != nil {
					return err
				}
			}
			return nil
		},
		Rollback: func(tx *gorm.DB) error {
			for _, col := range face0004Columns {
				if err := tx.Migrator().DropColumn(&face0004{}, col); err != nil {
					return err
				}
			}
			return nil
		},
	}, {
		// Faces gain a time zone and operating hours of their own (issue 28): the market's zone,
		// 06:00 to 24:00 (hours.go).
		ID:       "locations-0005-face-hours",
		Migrate:  func(tx *gorm.DB) error { return migrateFaceHours0005(tx, zoneOf) },
		Rollback: rollbackFaceHours0005,
	}}
}

// The columns locations-0004 added to locations_faces, as it added them.
type face0004 struct {
	WidthFt       float64 `gorm:"not null;default:48"`
	HeightFt      float64 `gorm:"not null;default:14"`
	PixelWidth    int     `gorm:"not null;default:1400"`
	PixelHeight   int     `gorm:"not null;default:400"`
	DistanceClass string  `gorm:"size:16;not null;default:'arterial'"`
	Photo         string  `gorm:"size:255;not null;default:''"`
	PhotoWidth    int     `gorm:"not null;default:0"`
	PhotoHeight   int     `gorm:"not null;default:0"`
	PhotoCorners  string  `gorm:"size:200;not null;default:''"`
}

func (face0004) TableName() string { return "locations_faces" }

var face0004Columns = []string{"WidthFt", "HeightFt", "PixelWidth", "PixelHeight", "DistanceClass", "Photo", "PhotoWidth", "PhotoHeight", "PhotoCorners"}

// The rows as locations-0001 created them.
type market0001 struct {
	ID        string  `gorm:"primaryKey;size:36"`
	Name      string  `gorm:"size:100;not null;uniqueIndex"`
	CenterLat float64 `gorm:"not null"`
	CenterLng float64 `gorm:"not null"`
	Zoom      int     `gorm:"not null"`
	Fixed     bool    `gorm:"not null;default:false"`
}

func (market0001) TableName() string { return "locations_markets" }

type city0001 struct {
	ID         string  `gorm:"primaryKey;size:36"`
	MarketID   string  `gorm:"size:36;not null;uniqueIndex:locations_cities_market_name"`
	Name       string  `gorm:"size:100;not null;uniqueIndex:locations_cities_market_name"`
	State      string  `gorm:"size:2;not null"`
	Lat        float64 `gorm:"not null"`
	Lng        float64 `gorm:"not null"`
	Population int64   `gorm:"not null"`
}

func (city0001) TableName() string { return "locations_cities" }

type face0001 struct {
	ID                    string      `gorm:"primaryKey;size:36;index:locations_faces_availability,priority:3"`
	MarketID              string      `gorm:"size:36;not null"`
	Market                string      `gorm:"size:100;not null;index:locations_faces_market_city,priority:1;index:locations_faces_availability,priority:1"`
	City                  string      `gorm:"size:100;not null;index:locations_faces_market_city,priority:2;index:locations_faces_availability,priority:2"`
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
	BasePrice             money.Cents `gorm:"not null;index:locations_faces_availability,priority:5"`
	BaseOoh               int64       `gorm:"not null;index:locations_faces_availability,priority:6"`
	BaseSpots             int         `gorm:"not null;index:locations_faces_availability,priority:4"`
	CreatedAt             time.Time   `gorm:"not null"`
}

func (face0001) TableName() string { return "locations_faces" }

type inventory0001 struct {
	FaceID         string      `gorm:"primaryKey;size:36;index:locations_inventory_week,priority:3"`
	Week           dates.Date  `gorm:"primaryKey;index:locations_inventory_week,priority:1"`
	Market         string      `gorm:"size:100;not null;index:locations_inventory_week,priority:2"`
	AvailableSpots int         `gorm:"not null;index:locations_inventory_week,priority:4"`
	MinValue       money.Cents `gorm:"not null;index:locations_inventory_week,priority:5"`
	MinValue2      money.Cents `gorm:"not null;default:0;index:locations_inventory_week,priority:6"`
	VendorTier     int         `gorm:"not null;default:1;index:locations_inventory_week,priority:7"`
	Ooh            int64       `gorm:"not null;index:locations_inventory_week,priority:8"`
}

func (inventory0001) TableName() string { return "locations_inventory" }

type spot0001 struct {
	ID        string      `gorm:"primaryKey;size:36"`
	FaceID    string      `gorm:"size:36;not null;uniqueIndex:locations_spots_face_week_slot,priority:1;index:locations_spots_week_face,priority:3"`
	Week      dates.Date  `gorm:"not null;uniqueIndex:locations_spots_face_week_slot,priority:2;index:locations_spots_week_face,priority:1"`
	Market    string      `gorm:"size:100;not null;index:locations_spots_week_face,priority:2"`
	Slot      int         `gorm:"not null;uniqueIndex:locations_spots_face_week_slot,priority:3"`
	Status    string      `gorm:"size:16;not null;index:locations_spots_week_face,priority:4"`
	CompanyID string      `gorm:"size:36;not null;index:locations_spots_company_ref,priority:1;index:locations_spots_company_key,priority:1"`
	Ref       string      `gorm:"size:100;not null;default:'';index:locations_spots_company_ref,priority:2"`
	Key       string      `gorm:"column:reservation_key;size:100;not null;index:locations_spots_company_key,priority:2"`
	ExpiresAt *time.Time  `gorm:"index;index:locations_spots_week_face,priority:5"`
	Price     money.Cents `gorm:"not null"`
	Ooh       int64       `gorm:"not null"`
	CreatedAt time.Time   `gorm:"not null"`
}

func (spot0001) TableName() string { return "locations_spots" }

type reservation0001 struct {
	CompanyID   string    `gorm:"primaryKey;size:36"`
	Key         string    `gorm:"column:reservation_key;primaryKey;size:100"`
	Kind        string    `gorm:"size:8;not null"`
	Fingerprint string    `gorm:"size:64;not null"`
	CreatedAt   time.Time `gorm:"not null"`
}

func (reservation0001) TableName() string { return "locations_reservations" }

// The row as locations-0003 created it.
type catalogue0003 struct {
	ID      int   `gorm:"primaryKey;autoIncrement:false"`
	Version int64 `gorm:"not null"`
}

func (catalogue0003) TableName() string { return "locations_catalogue" }

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

// insertMarkets inserts markets and cities, keeping those that exist. It is the migration
// locations-0002, so it writes the columns of the rows as locations-0001 created them: a column
// added later does not exist yet when it runs.
func insertMarkets(tx *gorm.DB, ms []Market, cs []City) error {
	markets := make([]market0001, len(ms))
	for i, m := range ms {
		markets[i] = market0001{ID: m.ID, Name: m.Name, CenterLat: m.CenterLat, CenterLng: m.CenterLng, Zoom: m.Zoom, Fixed: m.Fixed}
	}
	cities := make([]city0001, len(cs))
	for i, c := range cs {
		cities[i] = city0001{ID: c.ID, MarketID: c.MarketID, Name: c.Name, State: c.State, Lat: c.Lat, Lng: c.Lng, Population: c.Population}
	}
	if err := tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(markets, 200).Error; err != nil {
		return err
	}
	return tx.Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(cities, 200).Error
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
	return findInChunks(ids, func(chunk []string, part *[]Face) error {
		return s.conn(ctx).Where("id IN ?", chunk).Find(part).Error
	})
}

// CountFaces counts every face.
func (s *Store) CountFaces(ctx context.Context) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&Face{}).Count(&n).Error
	return n, err
}

// insertBatch is the rows per INSERT of InsertFaces: the SQLite driver binds parameters in time
// quadratic in their number per statement, so small batches are faster than large ones.
const insertBatch = 50

// InsertFaces inserts faces, inventory rows and spots in batches (seed and benchmarks), and bumps
// the catalogue version. Call it in a transaction.
func (s *Store) InsertFaces(ctx context.Context, faces []Face, inv []Inventory, spots []Spot) error {
	c := s.conn(ctx)
	if err := s.BumpCatalogue(ctx); err != nil {
		return err
	}
	if err := c.CreateInBatches(faces, insertBatch).Error; err != nil {
		return err
	}
	if len(inv) > 0 {
		if err := c.CreateInBatches(inv, insertBatch).Error; err != nil {
			return err
		}
	}
	if len(spots) > 0 {
		return c.CreateInBatches(spots, insertBatch).Error
	}
	return nil
}

// FaceBase is what the week reads need of a face: its market, city and base week values.
type FaceBase struct {
	ID, Market, City string
	Spots            int
	Price            money.Cents
	Ooh              int64
}

// FaceBases returns the base values of the faces of the markets (none = all), by market and id,
// from the covering index locations_faces_availability.
func (s *Store) FaceBases(ctx context.Context, markets []string) ([]FaceBase, error) {
	tx := s.conn(ctx).Model(&Face{}).Select("id, market, city, base_spots, base_price, base_ooh")
	return scanMarkets(tx, markets, make([]FaceBase, 0, 1024), func(rows *sql.Rows, f *FaceBase) error {
		return rows.Scan(&f.ID, &f.Market, &f.City, &f.Spots, &f.Price, &f.Ooh)
	})
}

// WeekInventory returns the explicit inventory rows of the markets' faces in the week, from the
// covering index locations_inventory_week.
func (s *Store) WeekInventory(ctx context.Context, week dates.Date, markets []string) ([]Inventory, error) {
	tx := s.conn(ctx).Model(&Inventory{}).Select("face_id, market, available_spots, min_value, min_value2, vendor_tier, ooh").Where("week = ?", week)
	return scanMarkets(tx, markets, nil, func(rows *sql.Rows, r *Inventory) error {
		r.Week = week
		return rows.Scan(&r.FaceID, &r.Market, &r.AvailableSpots, &r.MinValue, &r.MinValue2, &r.VendorTier, &r.Ooh)
	})
}

// scanMarkets runs tx narrowed to the markets (none = all) and appends each row to out, read by
// scan: the week reads scan their columns themselves, without gorm's reflection.
func scanMarkets[T any](tx *gorm.DB, markets []string, out []T, scan func(*sql.Rows, *T) error) ([]T, error) {
	if len(markets) > 0 {
		tx = tx.Where("market IN ?", markets)
	}
	rows, err := tx.Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// liveSpot is the condition of a spot that occupies its slot at now: active, or a hold not yet
// expired (an expired hold is free even before the job deletes it).
const liveSpot = "(status = 'active' OR expires_at > ?)"

// UsedSpots counts the live spots of every face of the markets (none = all) in the week, from the
// covering index locations_spots_week_face.
func (s *Store) UsedSpots(ctx context.Context, week dates.Date, markets []string, now time.Time) (map[string]int, error) {
	tx := s.conn(ctx).Model(&Spot{}).Select("face_id, COUNT(*)").Where("week = ?", week)
	if len(markets) > 0 {
		tx = tx.Where("market IN ?", markets)
	}
	rows, err := tx.Where(liveSpot, now).Group("face_id").Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

// CatalogueVersion is the number of changes made to faces and inventory rows: a reader that cached
// them knows they are still current while it is unchanged.
func (s *Store) CatalogueVersion(ctx context.Context) (int64, error) {
	var c Catalogue
	err := s.conn(ctx).Where("id = 1").Take(&c).Error
	return c.Version, err
}

// BumpCatalogue records a change of faces or inventory rows (in the transaction that makes it).
func (s *Store) BumpCatalogue(ctx context.Context) error {
	return s.conn(ctx).Model(&Catalogue{}).Where("id = 1").Update("version", gorm.Expr("version + 1")).Error
}

// InventoryOf returns the explicit inventory rows of the faces between two weeks, inclusive.
func (s *Store) InventoryOf(ctx context.Context, faceIDs []string, from, to dates.Date) ([]Inventory, error) {
	return findInChunks(faceIDs, func(chunk []string, part *[]Inventory) error {
		return s.conn(ctx).Where("face_id IN ? AND week BETWEEN ? AND ?", chunk, from, to).Find(part).Error
	})
}

// LiveSpotsOf returns the live spots of the faces between two weeks, inclusive.
func (s *Store) LiveSpotsOf(ctx context.Context, faceIDs []string, from, to dates.Date, now time.Time) ([]Spot, error) {
	return findInChunks(faceIDs, func(chunk []string, part *[]Spot) error {
		return s.conn(ctx).Where("face_id IN ? AND week BETWEEN ? AND ? AND "+liveSpot, chunk, from, to, now).Find(part).Error
	})
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

// spotBatch is the rows per INSERT of InsertSpots on SQLite (see insertBatch).
func (s *Store) spotBatch() int { return insertBatch }

// InsertSpots inserts spots in batches, skipping those whose (face, week, slot) is taken, and
// answers the ids of the skipped ones (nil when every spot went in). Like TryInsertSpot, a
// concurrent insert of the same slot waits for the other transaction before deciding.
func (s *Store) InsertSpots(ctx context.Context, spots []Spot) (map[string]bool, error) {
	if len(spots) == 0 {
		return nil, nil
	}
	inserted, err := s.insertSpots(ctx, spots)
	if err != nil {
		return nil, err
	}
	if inserted == int64(len(spots)) {
		return nil, nil
	}
	ids := make([]string, len(spots))
	for i := range spots {
		ids[i] = spots[i].ID
	}
	in := map[string]bool{}
	for _, chunk := range chunks(ids, 500) {
		var found []string
		if err := s.conn(ctx).Model(&Spot{}).Where("id IN ?", chunk).Pluck("id", &found).Error; err != nil {
			return nil, err
		}
		for _, id := range found {
			in[id] = true
		}
	}
	lost := map[string]bool{}
	for _, id := range ids {
		if !in[id] {
			lost[id] = true
		}
	}
	return lost, nil
}

// insertSpots inserts spots, skipping taken slots, and answers how many went in: on PostgreSQL in
// one statement that unnests a column array per field (several times faster than VALUES batches
// for 5,200 spots), in the spots' order; on SQLite in batches.
func (s *Store) insertSpots(ctx context.Context, spots []Spot) (int64, error) {
	if db.Dialect(s.db) != db.Postgres {
		res := s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).CreateInBatches(spots, s.spotBatch())
		return res.RowsAffected, res.Error
	}
	n := len(spots)
	id, face, week, market, status, company, ref, key := make([]string, n), make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	slot, price, ooh := make([]int64, n), make([]int64, n), make([]int64, n)
	expires := make([]*time.Time, n)
	created := make([]time.Time, n)
	for i := range spots {
		sp := &spots[i]
		id[i], face[i], week[i], market[i], status[i], company[i], ref[i], key[i] = sp.ID, sp.FaceID, sp.Week.String(), sp.Market,
			sp.Status, sp.CompanyID, sp.Ref, sp.Key
		slot[i], price[i], ooh[i], expires[i], created[i] = int64(sp.Slot), int64(sp.Price), sp.Ooh, sp.ExpiresAt, sp.CreatedAt
	}
	const q = `INSERT INTO locations_spots (id, face_id, week, market, status, company_id, ref, reservation_key, slot, price,
  ooh, expires_at, created_at)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
  $9::bigint[], $10::bigint[], $11::bigint[], $12::timestamptz[], $13::timestamptz[])
ON CONFLICT DO NOTHING`
	// The statement goes to the connection as is: gorm would expand each slice into a list.
	res, err := s.conn(ctx).Statement.ConnPool.ExecContext(ctx, q, id, face, week, market, status, company, ref, key, slot, price, ooh, expires, created)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
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

// CountLiveReservedByRef counts the company's reserved spots under the reference whose hold has not
// expired at now.
func (s *Store) CountLiveReservedByRef(ctx context.Context, companyID, ref string, now time.Time) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&Spot{}).Where("company_id = ? AND ref = ? AND status = ? AND expires_at > ?", companyID, ref, "reserved", now).Count(&n).Error
	return n, err
}

// DeleteReservedByRef deletes the company's reserved spots under the reference.
func (s *Store) DeleteReservedByRef(ctx context.Context, companyID, ref string) (int64, error) {
	res := s.conn(ctx).Where("company_id = ? AND ref = ? AND status = ?", companyID, ref, "reserved").Delete(&Spot{})
	return res.RowsAffected, res.Error
}

// findInChunks runs find on the ids 500 at a time (an IN list's parameters are bounded) and joins
// the rows.
func findInChunks[T any](ids []string, find func(chunk []string, part *[]T) error) ([]T, error) {
	var out []T
	for _, chunk := range chunks(ids, 500) {
		var part []T
		if err := find(chunk, &part); err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	return out, nil
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

// UpdateFaceGeometry sets a face's geometry and bumps the catalogue version (readers cache faces).
// Call it in a transaction. ENOTFOUND is the caller's when no row changed.
func (s *Store) UpdateFaceGeometry(ctx context.Context, id string, g FaceGeometry) (int64, error) {
	res := s.conn(ctx).Model(&Face{}).Where("id = ?", id).Updates(map[string]any{
		"width_ft": g.WidthFt, "height_ft": g.HeightFt, "pixel_width": g.PixelWidth, "pixel_height": g.PixelHeight,
		"distance_class": g.DistanceClass, "photo_corners": g.PhotoCorners,
	})
	if res.Error != nil || res.RowsAffected == 0 {
		return res.RowsAffected, res.Error
	}
	return res.RowsAffected, s.BumpCatalogue(ctx)
}
