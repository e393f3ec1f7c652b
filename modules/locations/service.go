// Package locations is the locations & pricing bounded context (DESIGN.md §2): markets and their
// cities, billboard faces and their double-faced pairs, the weekly spot inventory with its prices and
// impressions, holds and bookings of spots, and the place search of the map. It is the "calendar
// service" of spec B, served by our own API (DESIGN.md §1.1). This root package is the module's only
// public API: the Service interface, its DTOs, requests and messages.
package locations

import (
	"context"
	"image"
	"time"

	"marquee/platform/dates"
	"marquee/platform/money"
)

// Faces of a sign (A §3 "Location marker data").
const (
	FaceNorth  = "North Face"
	FaceSouth  = "South Face"
	FaceEast   = "East Face"
	FaceWest   = "West Face"
	FaceDouble = "Double Faced"
)

// Spot statuses (B §3 "Campaign week status"): a reserved spot is a hold that expires; an active spot
// is booked.
const (
	StatusReserved = "reserved"
	StatusActive   = "active"
)

// Map constants of B §9.
const (
	// DefaultRadius is the radius of the distance filter when none is given, in miles.
	DefaultRadius = 5
	// EarthRadiusMiles is the earth radius the distance filter uses.
	EarthRadiusMiles = 3956
	// FixedCentreMarket is the only market with a fixed map centre, shown at FixedCentreZoom.
	FixedCentreMarket = "SF Bay Area"
	FixedCentreZoom   = 8
	// MaxPredictions is how many place predictions one search answers.
	MaxPredictions = 8
)

// RadiusOptions are the radii of the distance filter, in miles (B §9).
var RadiusOptions = []int{5, 10, 15, 20, 25, 50, 100, 250}

// Messages of this module: the spec's word for word where it gives one.
const (
	// MsgMarketsUnavailable is B §8's answer when no market can be listed.
	MsgMarketsUnavailable = "Our campaign creation service is currently unavailable, please check back soon"
	MsgUnknownMarket      = "Unknown market."
	MsgUnknownCity        = "This city is not in the selected markets."
	MsgMarketsRequired    = "Please select at least one market."
	MsgStartAtInvalid     = "Please enter a valid start date (YYYY-MM-DD)."
	MsgStartAtNotMonday   = "The start date must be a Monday."
	MsgRadiusInvalid      = "The radius must be one of 5, 10, 15, 20, 25, 50, 100 or 250 miles."
	MsgPlaceNotFound      = "Place not found."
	MsgPlaceRequired      = "Please choose a place."
	MsgFaceNotFound       = "Location not found."
	MsgWeekNotFound       = "Week not found."
	MsgCampaignNotFound   = "Campaign not found."
	MsgStatusInvalid      = "The status must be active."
	MsgSpotTaken          = "This spot has just been taken. Please choose another week or location."
	MsgHoldNotFound       = "This hold does not exist or has been released."
	MsgHoldExpired        = "This hold has expired. Please check the availability again."
	MsgKeyReused          = "This request key was already used for a different request."
	MsgKeyRequired        = "A request key is required."
	MsgItemsRequired      = "Please choose at least one location and week."
	MsgWeekNotMonday      = "Each week must start on a Monday."
	MsgTooManyItems       = "Too many locations or weeks in one request."
	MsgWeekNotHeld        = "Only the held weeks of a conflict you are resolving can be changed here."
	MsgFaceFeet           = "The face's width and height must be between 1 and 200 feet."
	MsgFacePixels         = "The face's resolution must be between 1 and 8192 pixels a side."
	MsgDistanceClass      = "The viewing distance class must be freeway, arterial or street."
	MsgCorners            = "The corners must be four points, clockwise from the top-left, forming a convex shape inside the photo."
	MsgNoPhoto            = "This face has no photo."
	MsgNoCorners          = "This face's photo has no screen corners yet: an admin sets them in the face editor."
)

// PlacesAttribution credits the place search's data (modules/locations/gazetteer/README.md); show it
// where place predictions are shown.
const PlacesAttribution = "Places: GeoNames (geonames.org), CC BY 4.0"

// MaxItems bounds the items of one quote, booking or hold (faces × weeks): a campaign of 200 faces
// over 52 weeks.
const MaxItems = 10_400

// LatLng is a point.
type LatLng struct {
	Lat float64 `json:"lat"`
	Lng float64 `json:"lng"`
}

// Market is a DMA market with its cities (GET /api/markets/). Center is the map centre: fixed for
// SF Bay Area (B §9), the centroid of the market's faces otherwise.
type Market struct {
	ID     string   `json:"id"`
	Market string   `json:"market"`
	Cities []string `json:"cities"`
	Center LatLng   `json:"center"`
	Zoom   int      `json:"zoom"`
	Fixed  bool     `json:"fixed"`
}

// LocationSettings are a face's rotation and spot duration (A §3).
type LocationSettings struct {
	// AdRotationFrequency is how many ads share the screen in rotation.
	AdRotationFrequency int `json:"ad_rotation_frequency"`
	// AdSpotDuration is the length of one spot, in seconds.
	AdSpotDuration int `json:"ad_spot_duration"`
}

// Location is a billboard face (B §3 "Location", A §3 "Location marker data"); the map's marker.
type Location struct {
	ID           string  `json:"id"`
	LocationName string  `json:"location_name"`
	Market       string  `json:"market"`
	City         string  `json:"city"`
	Lat          float64 `json:"lat"`
	Lng          float64 `json:"lng"`
	// Face is one of FaceNorth, FaceSouth, FaceEast, FaceWest, FaceDouble.
	Face string `json:"face"`
	// DoubleFaced is true when another face has the same location name; OtherFace is its id (B §3).
	DoubleFaced           bool             `json:"double_faced"`
	OtherFace             string           `json:"other_face"`
	Likely                bool             `json:"likely"`
	Location              LocationSettings `json:"location"`
	NewLocationSnapshot   string           `json:"new_location_snapshot"`
	LocationSnapshot      string           `json:"location_snapshot"`
	ExcludeMaximizeBudget bool             `json:"exclude_maximize_budget"`
	// Value is the face's base weekly price as charged: SpotPrice of the server value (plus $10,
	// rounded up to $10, B §9); Ooh its base weekly impressions.
	Value money.Cents `json:"value"`
	Ooh   int64       `json:"ooh"`
	// Distance from the searched place, in miles (only with ?place=).
	Distance *float64 `json:"distance,omitempty"`
	// Geometry is the face's size, pixels, viewing distance and photo corners (issue 29). Every
	// face has one; it is optional in the type because the compact list (LocationColumns) does not
	// carry it.
	Geometry *FaceGeometry `json:"geometry,omitempty"`
	// Hours are the face's time zone and daily operating hours (issue 28); like Geometry, every
	// face has them and the compact list does not carry them.
	Hours *FaceHours `json:"hours,omitempty"`
}

// FaceHours is a face's IANA time zone and its daily operating hours there, HH:MM: Open before
// Close, Close at most "24:00" (00:00 to 24:00 runs all day). A screen plays, and is expected to
// play, only within them (docs/screens.md "Hours and time zone").
type FaceHours struct {
	Timezone string `json:"timezone"`
	Open     string `json:"open"`
	Close    string `json:"close"`
	// OpenMinute and CloseMinute are Open and Close in minutes of the day, for the modules that
	// compute with them.
	OpenMinute  int `json:"-"`
	CloseMinute int `json:"-"`
}

// FaceHoursUpdate is the body of PUT /api/admin/faces/{id}/hours.
type FaceHoursUpdate struct {
	Timezone string `json:"timezone" validate:"singleline"`
	Open     string `json:"open" validate:"singleline"`
	Close    string `json:"close" validate:"singleline"`
}

// Messages of the hours editor (PUT /api/admin/faces/{id}/hours).
const (
	MsgTimezone   = "The time zone must be an IANA zone name, such as America/Los_Angeles."
	MsgClock      = "Enter a time as HH:MM, from 00:00 to 24:00."
	MsgHoursOrder = "The face must open before it closes, on the same day (00:00 to 24:00 runs all day)."
)

// DefaultOpenMinute and DefaultCloseMinute are a face's operating hours until an admin sets them:
// 06:00 to 24:00.
const (
	DefaultOpenMinute  = 6 * 60
	DefaultCloseMinute = 24 * 60
)

// Viewing distance classes of a face: where it stands decides how far away and how fast it is read
// (DistanceClasses in rules.go gives each one's distance and speed, with their source).
const (
	ClassFreeway  = "freeway"
	ClassArterial = "arterial"
	ClassStreet   = "street"
)

// Point is a point of a face photo, in its pixels (x right, y down).
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// FaceGeometry is a face's physical size and resolution, its viewing distance class with that
// class's typical distance and speed, and its photo with the four corners of the screen in it
// (top-left, top-right, bottom-right, bottom-left; empty until an admin sets them).
type FaceGeometry struct {
	WidthFt           float64 `json:"width_ft"`
	HeightFt          float64 `json:"height_ft"`
	PixelWidth        int     `json:"pixel_width"`
	PixelHeight       int     `json:"pixel_height"`
	DistanceClass     string  `json:"distance_class"`
	ViewingDistanceFt float64 `json:"viewing_distance_ft"`
	SpeedMph          float64 `json:"speed_mph"`
	// Photo is the address of the face's photo (a PNG), empty when it has none.
	Photo       string  `json:"photo"`
	PhotoWidth  int     `json:"photo_width"`
	PhotoHeight int     `json:"photo_height"`
	Corners     []Point `json:"corners"`
}

// FaceGeometryUpdate is the body of PUT /api/admin/faces/{id}/geometry. Corners may be empty (no
// corners), or four points forming a convex quad inside the photo, clockwise from the top-left.
type FaceGeometryUpdate struct {
	WidthFt       float64 `json:"width_ft"`
	HeightFt      float64 `json:"height_ft"`
	PixelWidth    int     `json:"pixel_width"`
	PixelHeight   int     `json:"pixel_height"`
	DistanceClass string  `json:"distance_class" validate:"singleline"`
	Corners       []Point `json:"corners" validate:"dive"`
}

// Limits of a face's geometry: the largest spectacular is about 100 x 60 ft; no screen has more
// than 8K pixels a side.
const (
	MaxFaceFeet   = 200
	MaxFacePixels = 8192
)

// LocationColumns is GET /api/od/locations/?format=columns: the faces of the same query
// as []Location, in columns, with only what the web app's map pages read (the map, the face list,
// the info window). About a quarter of the JSON's bytes once compressed (docs/map.md).
//
//   - No ids: the map draws without them, and the 16 random bytes of a UUID do not compress (they
//     were half of the bytes). keys[i] tells face i apart instead: the first key_bytes bytes of its
//     UUID (standard base64, key_bytes a face), key_bytes the fewest (at least 4) that no two faces
//     of the whole catalogue share, so a face id from elsewhere (an available spot's xxx) names at
//     most one face of the answer by its first 2*key_bytes hex digits. When an id is not a UUID in its
//     canonical form, keys is empty and key[i] is the whole id.
//   - The full ids, when a page needs them (the campaign form sends them), are
//     GET /api/od/locations/?format=ids with the same query (LocationIDs), in the same order when
//     both answers have the same order.
//   - The strings that repeat are dictionaries, each face holding an index into
//     one: its location name names[name[i]], market markets[market[i]], city cities[city[i]], face
//     direction faces[face[i]] and snapshot snapshots[snapshot[i]] (the photo the info window shows:
//     new_location_snapshot, else location_snapshot).
//   - name, lat and lng are deltas: each is the difference from the face before (the first from 0),
//     so the long runs of one sign, one city, one market are small numbers. lat and lng are in
//     hundred-thousandths of a degree (about 1 m).
//   - value is the base weekly price in cents; ooh the base weekly impressions; frequency and
//     duration the location settings; flags bit 1 is likely, bit 2 exclude_maximize_budget.
//   - distance, only with ?place=, is in hundredths of a mile.
//
// Not sent: double_faced and other_face (the map pairs the faces of a sign by name, B §3).
type LocationColumns struct {
	Format int `json:"format"`
	// Order is a digest of the faces' ids in their order (LocationIDs.Order).
	Order     string   `json:"order"`
	KeyBytes  int      `json:"key_bytes"`
	Keys      string   `json:"keys"`
	Key       []string `json:"key,omitempty"`
	Names     []string `json:"names"`
	Name      []int    `json:"name"`
	Markets   []string `json:"markets"`
	Market    []int    `json:"market"`
	Cities    []string `json:"cities"`
	City      []int    `json:"city"`
	Faces     []string `json:"faces"`
	Face      []int    `json:"face"`
	Snapshots []string `json:"snapshots"`
	Snapshot  []int    `json:"snapshot"`
	Lat       []int64  `json:"lat"`
	Lng       []int64  `json:"lng"`
	Value     []int64  `json:"value"`
	Ooh       []int64  `json:"ooh"`
	Frequency []int    `json:"frequency"`
	Duration  []int    `json:"duration"`
	Flags     []int    `json:"flags"`
	Distance  []int64  `json:"distance,omitempty"`
}

// LocationIDs is GET /api/od/locations/?format=ids: the ids of the faces of LocationColumns of the
// same query, in its order: face i's id is the i-th 16 bytes of uuids (standard base64) when every
// id is a UUID, written back in the canonical lower-case form; otherwise uuids is empty and the ids
// are id[i]. The two answers list the same faces in the same order when their orders are equal (a
// face was added or removed between the two requests otherwise: ask again). The order changes with
// the ids only, so a change of a face's price or of the inventory keeps both answers' ETags.
type LocationIDs struct {
	Format int      `json:"format"`
	Order  string   `json:"order"`
	UUIDs  string   `json:"uuids"`
	ID     []string `json:"id,omitempty"`
}

// LocationColumnsFormat is LocationColumns.Format and LocationIDs.Format: a decoder refuses another.
// 2: the ids moved to LocationIDs, keys in their place.
const LocationColumnsFormat = 2

// Flags of LocationColumns.
const (
	FlagLikely                = 1
	FlagExcludeMaximizeBudget = 2
)

// LocationQuery selects faces (GET /api/od/locations/): by markets (empty = all), or within Radius
// miles of a place.
type LocationQuery struct {
	Markets []string
	PlaceID string
	Radius  int
}

// AvailableSpotsRequest is the body of POST /api/available-spots/ (B §7).
type AvailableSpotsRequest struct {
	// StartAt is a Monday, YYYY-MM-DD.
	StartAt string   `json:"start_at" validate:"singleline"`
	Markets []string `json:"markets" validate:"dive,singleline"`
	// Cities is an optional comma list that narrows the markets.
	Cities string `json:"cities,omitempty" validate:"singleline"`
}

// AvailableSpot is a face's availability and price for the week (A §3 "Available spot"). For vendor
// tier 2, MinValue is the average of min_value and min_value_2 rounded up to the next 10 and OldValue
// keeps the original (A §7).
type AvailableSpot struct {
	Xxx            string      `json:"xxx"`
	UsedSpots      int         `json:"used_spots"`
	AvailableSpots int         `json:"available_spots"`
	MinValue       money.Cents `json:"min_value"`
	MinValue2      money.Cents `json:"min_value_2"`
	VendorTier     int         `json:"vendor_tier"`
	OldValue       money.Cents `json:"old_value"`
	Ooh            int64       `json:"ooh"`
	Available      bool        `json:"available"`
	// Price is what a booking of this spot costs: SpotPrice(MinValue), the location minimum value
	// (MinValue plus $10) rounded up to the next $10 (B §9), the same as Quote's Price, which the
	// campaign creation charges and checks the form against.
	Price money.Cents `json:"price"`
}

// PlacePrediction is one answer of the place search (B §3 "Map place").
type PlacePrediction struct {
	ID    string `json:"id"`
	Value string `json:"value"`
	// Approximate is set when the input was a street address that could not be looked up and this
	// is the town it names; Note says so, for the user.
	Approximate bool   `json:"approximate,omitempty"`
	Note        string `json:"note,omitempty"`
}

// PlaceGeometry is where a place is.
type PlaceGeometry struct {
	Location LatLng `json:"location"`
}

// PlaceDetails answers GET /api/places/details.
type PlaceDetails struct {
	ID       string        `json:"id"`
	Name     string        `json:"name"`
	Geometry PlaceGeometry `json:"geometry"`
}

// MapConfig is the tile server of the map (DESIGN.md §1.8).
type MapConfig struct {
	TileURL     string `json:"tile_url"`
	Attribution string `json:"attribution"`
	// Offline is true when the server could not reach the tile server: the web app then
	// draws its offline basemap without asking for tiles.
	Offline bool `json:"offline"`
}

// Spot is one sold or held spot of a face in a week: a row unique on (face, week, slot).
type Spot struct {
	ID        string      `json:"id"`
	FaceID    string      `json:"face_id"`
	Week      dates.Date  `json:"start_at"`
	EndAt     dates.Date  `json:"end_at"`
	Slot      int         `json:"slot"`
	Status    string      `json:"status_week"`
	CompanyID string      `json:"company_id"`
	Ref       string      `json:"ref"`
	Key       string      `json:"key"`
	ExpiresAt *time.Time  `json:"expires_at,omitempty"`
	Price     money.Cents `json:"price"`
	Ooh       int64       `json:"ooh"`
}

// CalendarLocation is a face with the caller company's weeks on it (GET /api/calendar/locations).
type CalendarLocation struct {
	Location `tstype:",extends"`
	Weeks    []Spot `json:"weeks"`
}

// SetWeekStatusRequest is the body of PUT /api/calendar/week: only "active" is accepted (B §7).
type SetWeekStatusRequest struct {
	ID     string `json:"id" validate:"singleline"`
	Status string `json:"status" validate:"singleline"`
}

// DeletedResponse answers the calendar deletions.
type DeletedResponse struct {
	Success bool `json:"success"`
	Deleted int  `json:"deleted"`
}

// FaceWeek names one face in one week (a Monday).
type FaceWeek struct {
	FaceID string     `json:"face_id"`
	Week   dates.Date `json:"week"`
}

// QuoteRequest asks prices and availability for every face × week.
type QuoteRequest struct {
	FaceIDs []string
	Weeks   []dates.Date
}

// Quote is the price and availability of a face in a week. Price is the spot price the buyer pays
// (tier-2 averaging and rounding to the next 10 applied, A §7 and B §9).
type Quote struct {
	FaceID         string      `json:"face_id"`
	Week           dates.Date  `json:"week"`
	AvailableSpots int         `json:"available_spots"`
	UsedSpots      int         `json:"used_spots"`
	Available      bool        `json:"available"`
	Price          money.Cents `json:"price"`
	MinValue       money.Cents `json:"min_value"`
	MinValue2      money.Cents `json:"min_value_2"`
	VendorTier     int         `json:"vendor_tier"`
	Ooh            int64       `json:"ooh"`
}

// ReserveRequest books (Book) or holds (Hold) one spot per item, all or nothing. Key makes the call
// idempotent for the company: the same key answers the earlier result.
type ReserveRequest struct {
	Key       string
	CompanyID string
	// Ref is the caller's reference (the campaign id).
	Ref   string
	Items []FaceWeek
}

// Conflict lists, for a face with taken weeks, the weeks that were taken and the nearest later
// weeks that are free (one per taken week, not among the requested weeks).
type Conflict struct {
	FaceID    string       `json:"face_id"`
	Taken     []dates.Date `json:"taken"`
	Suggested []dates.Date `json:"suggested"`
}

// ReserveResult is the answer of Book and Hold: the spots, or the conflicts when nothing was
// reserved.
type ReserveResult struct {
	Spots     []Spot     `json:"spots"`
	Conflicts []Conflict `json:"conflicts,omitempty"`
}

// KeyRequest names an earlier Hold (ConfirmHold) or reservation (Release) by its key.
type KeyRequest struct {
	Key       string
	CompanyID string
}

// Service is what the campaigns module uses.
type Service interface {
	// Markets lists the markets, sorted by name, with their cities and map centre.
	Markets(ctx context.Context) ([]Market, error)
	// Locations lists faces by market or around a place. EINVALID (field market, place or radius).
	Locations(ctx context.Context, q LocationQuery) ([]Location, error)
	// FindFacesByIDs returns the faces with these ids (unknown ids are left out).
	FindFacesByIDs(ctx context.Context, ids []string) ([]Location, error)
	// AvailableSpots answers the week's spots of the markets (A §7). EINVALID (field start_at,
	// markets or cities).
	AvailableSpots(ctx context.Context, req AvailableSpotsRequest) ([]AvailableSpot, error)
	// Quote prices every face × week. EINVALID (weeks not Mondays, too many items), ENOTFOUND (an
	// unknown face).
	Quote(ctx context.Context, req QuoteRequest) ([]Quote, error)
	// Book takes one active spot per item, all or nothing. When a week is full it reserves nothing
	// and returns the conflicts with ECONFLICT (MsgSpotTaken). The same key returns the earlier
	// spots; a key reused for other items is ECONFLICT (MsgKeyReused). EINVALID, ENOTFOUND (face).
	Book(ctx context.Context, req ReserveRequest) (ReserveResult, error)
	// Hold is Book with reserved spots that expire after the hold time (HOLD_TTL) unless confirmed.
	Hold(ctx context.Context, req ReserveRequest) (ReserveResult, error)
	// ConfirmHold makes the held spots of the key active. Confirming again returns the same spots.
	// ENOTFOUND (MsgHoldNotFound: no such hold, or released), ECONFLICT (MsgHoldExpired).
	ConfirmHold(ctx context.Context, req KeyRequest) ([]Spot, error)
	// Release frees every spot reserved under the key and answers how many it freed; releasing
	// again frees none.
	Release(ctx context.Context, req KeyRequest) (int, error)
	// ReleaseSpots frees the company's spots with these ids (the weeks of a campaign that will not
	// run) and answers how many it freed; other companies' ids and freed spots are skipped.
	ReleaseSpots(ctx context.Context, companyID string, spotIDs []string) (int, error)
	// FacePhoto returns a face's photo and geometry. ENOTFOUND (MsgFaceNotFound), EINVALID
	// (MsgNoPhoto when it has none).
	FacePhoto(ctx context.Context, faceID string) (image.Image, FaceGeometry, error)
	// SpotsByRefs returns the company's live spots under these references.
	SpotsByRefs(ctx context.Context, companyID string, refs []string) ([]Spot, error)
	// SetFaceHours sets a face's time zone and operating hours as PUT /api/admin/faces/{id}/hours
	// does (validated, audited; the actor is the context's principal, or the system): for the demo
	// seed. EINVALID, ENOTFOUND (MsgFaceNotFound).
	SetFaceHours(ctx context.Context, faceID string, req FaceHoursUpdate) (Location, error)
}
