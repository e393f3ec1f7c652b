package store

import (
	"context"

	"gorm.io/gorm"
)

// FaceHours is a face's time zone (an IANA name) and its daily operating hours in that zone, in
// minutes of the local day: OpenMinute < CloseMinute, CloseMinute at most 1440 (24:00), so a face
// running all day is 0 to 1440 (issue 28, docs/screens.md "Hours and time zone").
type FaceHours struct {
	Timezone    string `gorm:"size:64;not null;default:''"`
	OpenMinute  int    `gorm:"not null;default:360"`
	CloseMinute int    `gorm:"not null;default:1440"`
}

// The columns locations-0005 added to locations_faces, as it added them.
type face0005 struct {
	Timezone    string `gorm:"size:64;not null;default:''"`
	OpenMinute  int    `gorm:"not null;default:360"`
	CloseMinute int    `gorm:"not null;default:1440"`
}

func (face0005) TableName() string { return "locations_faces" }

var face0005Columns = []string{"Timezone", "OpenMinute", "CloseMinute"}

// migrateFaceHours0005 adds the hours columns (06:00 to 24:00 by the columns' defaults) and gives
// each existing face its market's zone (zoneOf answers the business zone for a market it does not
// know), so no face is left without one.
func migrateFaceHours0005(tx *gorm.DB, zoneOf func(market string) string) error {
	for _, col := range face0005Columns {
		if err := tx.Migrator().AddColumn(&face0005{}, col); err != nil {
			return err
		}
	}
	var markets []string
	if err := tx.Table("locations_faces").Distinct("market").Pluck("market", &markets).Error; err != nil {
		return err
	}
	for _, m := range markets {
		if err := tx.Table("locations_faces").Where("market = ?", m).Update("timezone", zoneOf(m)).Error; err != nil {
			return err
		}
	}
	return nil
}

func rollbackFaceHours0005(tx *gorm.DB) error {
	for _, col := range face0005Columns {
		if err := tx.Migrator().DropColumn(&face0005{}, col); err != nil {
			return err
		}
	}
	return nil
}

// UpdateFaceHours sets a face's zone and hours and bumps the catalogue version (readers cache
// faces). Call it in a transaction; no row changed means no such face.
func (s *Store) UpdateFaceHours(ctx context.Context, id string, h FaceHours) (int64, error) {
	res := s.conn(ctx).Model(&Face{}).Where("id = ?", id).Updates(map[string]any{
		"timezone": h.Timezone, "open_minute": h.OpenMinute, "close_minute": h.CloseMinute,
	})
	if res.Error != nil || res.RowsAffected == 0 {
		return res.RowsAffected, res.Error
	}
	return res.RowsAffected, s.BumpCatalogue(ctx)
}
