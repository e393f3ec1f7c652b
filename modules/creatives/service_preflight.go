package creatives

// The creative pre-flight and the in-situ preview (issue 29; docs/creatives.md): the checks of a
// creative against the faces it will run on, and the creative drawn on a face's photo.

// Pre-flight limits and messages.
const (
	// MaxPreflightFaces bounds the faces of one pre-flight: a campaign's faces.
	MaxPreflightFaces = 200
	// MaxDesignElements bounds a builder design's elements.
	MaxDesignElements = 100
	// MaxDesignText bounds one text element of a design.
	MaxDesignText = 500

	MsgPreflightSource  = "Please give a creative or upload an image."
	MsgUnknownFace      = "One of the faces does not exist."
	MsgTooManyFaces     = "Too many faces in one pre-flight (at most 200)."
	MsgBadDesign        = "The design is not valid: check its size, elements and colours."
	MsgPreviewLight     = "light is day or night."
	MsgPreviewView      = "view is photo or driveby."
	MsgPreviewFace      = "Please choose a face."
	MsgPreflightPending = "This creative has no pre-flight analysis yet."
)

// Preview options.
const (
	LightDay     = "day"
	LightNight   = "night"
	ViewPhoto    = "photo"
	ViewDriveBy  = "driveby"
	PreviewLimit = 4 // previews rendered at once; more wait
	// PreviewRendersPerMinute bounds the previews one user has drawn (cache misses) a minute. A
	// render costs tens of milliseconds and leaves a PNG in storage for good, and every face with
	// a photo, light and view is a new one, so without a bound one GET loop could fill the disk.
	// A cached preview is not counted.
	PreviewRendersPerMinute = 60
)

// PreviewRequest asks for the preview of a company's creative on a face (Service.PreviewPNG):
// Light is LightDay or LightNight, View ViewPhoto or ViewDriveBy.
type PreviewRequest struct {
	CompanyID  string
	CreativeID string
	FaceID     string
	Light      string
	View       string
}

// DesignElement is one element of a builder design, in drawing order (later on top). Kind is text,
// shape or image; Fill the text colour or shape fill (#rrggbb); FontSize in design pixels.
type DesignElement struct {
	Kind       string  `json:"kind" validate:"singleline"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Width      float64 `json:"width"`
	Height     float64 `json:"height"`
	Text       string  `json:"text,omitempty" text:"multiline"`
	FontSize   float64 `json:"font_size,omitempty"`
	FontFamily string  `json:"font_family,omitempty" validate:"singleline"`
	Fill       string  `json:"fill,omitempty" validate:"singleline"`
}

// Design is what the Ad Design Tool sends beside its PNG when it saves (CreateCreativeRequest.Design):
// the canvas and its elements, so the pre-flight of a builder creative is exact, with no OCR. It
// is the input of the golden cases (modules/creatives/internal/preflight/testdata/golden.json).
type Design struct {
	Width      int             `json:"width"`
	Height     int             `json:"height"`
	Background string          `json:"background" validate:"singleline"`
	Elements   []DesignElement `json:"elements" validate:"dive"`
}

// PreflightCheck is one check's outcome (docs/creatives.md lists the checks): level is pass,
// warning, fail or skipped (a check that could not run says why in message); value and threshold
// are in unit; fit is the size check's exact, scaled or letterboxed.
type PreflightCheck struct {
	ID        string  `json:"id"`
	Level     string  `json:"level"`
	Message   string  `json:"message"`
	Hint      string  `json:"hint"`
	Value     float64 `json:"value"`
	Threshold float64 `json:"threshold"`
	Unit      string  `json:"unit"`
	Fit       string  `json:"fit,omitempty"`
}

// PreflightFace is the checks of a creative on one face (face_id empty: the reference face, a
// 14 x 48 ft bulletin of 1400 x 400 pixels read from 250 ft, when no face was chosen).
type PreflightFace struct {
	FaceID string           `json:"face_id"`
	Score  int              `json:"score"`
	Checks []PreflightCheck `json:"checks"`
}

// PreflightReport answers POST /api/creatives/preflight and is the creative's preflight: the lowest
// face score (out of 100), each check at its worst over the faces, then each face's own.
type PreflightReport struct {
	Score  int              `json:"score"`
	Checks []PreflightCheck `json:"checks"`
	Faces  []PreflightFace  `json:"faces"`
}

// PreflightRequest is the JSON body of POST /api/creatives/preflight: a creative of the caller's
// company and the faces to check it against (none: the reference face). The call also takes a
// multipart body: an image in field file (the creative upload's types and 10 MB) and face_ids as a
// comma list.
type PreflightRequest struct {
	CreativeID string   `json:"creative_id" validate:"singleline"`
	FaceIDs    []string `json:"face_ids" validate:"dive,singleline"`
}
