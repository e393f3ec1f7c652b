package store

import "context"

// SetFacePhoto gives a face a new photo of w x h pixels and clears its corners (points of the old
// photo), and bumps the catalogue version (readers cache faces). Call it in a transaction.
func (s *Store) SetFacePhoto(ctx context.Context, id, photo string, w, h int) (int64, error) {
	res := s.conn(ctx).Model(&Face{}).Where("id = ?", id).Updates(map[string]any{
		"photo": photo, "photo_width": w, "photo_height": h, "photo_corners": "",
	})
	if res.Error != nil || res.RowsAffected == 0 {
		return res.RowsAffected, res.Error
	}
	return res.RowsAffected, s.BumpCatalogue(ctx)
}
