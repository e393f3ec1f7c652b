package screens

import "time"

// Imports of a CMS's proof-of-play export (docs/screens-import.md): admin-only, since the network
// operator, not an advertiser, holds the CMS.

// Import limits and formats.
const (
	// MaxImportBytes is the largest file an import reads (the parser's limit); the request may
	// carry 1 MiB more for the multipart framing.
	MaxImportBytes = 50 << 20
	// MaxImportReasons is how many row reasons an import keeps and answers (the first ones by line).
	MaxImportReasons = 1000
	// MaxMappings is the most mappings one PUT may set.
	MaxMappings = 1000

	ImportFormatXibo = "xibo"
	ImportFormatCSV  = "csv"

	// Kinds of a row reason.
	ImportRefused   = "refused"
	ImportFlagged   = "flagged"
	ImportDuplicate = "duplicate"
)

// Messages of the import calls.
const (
	MsgImportNoFile     = "Send the export as a multipart form with a part named file."
	MsgImportFormat     = "The format must be xibo or csv."
	MsgImportTimezone   = "The time zone must be an IANA name such as America/New_York."
	MsgImportTooLarge   = "The file is larger than 50 MiB; split the export by date."
	MsgMappingRef       = "A reference is 1 to 255 characters on one line."
	MsgMappingCampaign  = "No campaign has this id."
	MsgMappingCreative  = "No creative has this id."
	MsgTooManyMappings  = "Set at most 1000 mappings at once."
	AuditImport         = "screens.import"
	AuditImportMappings = "screens.import_mappings"
)

// ImportRowReason is why a row of an import was refused, flagged (stored, not counted) or a
// duplicate of a row already imported. Line is the file's line (the header is line 1).
type ImportRowReason struct {
	Line   int    `json:"line"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// ImportReport answers an import. Repeat is true when this file (by SHA-256) was imported before:
// the report is that first import's, and nothing was counted again. Accepted rows were counted
// (Plays is the sum of their play counts); Flagged rows were stored but not counted; Refused rows
// were not stored; Duplicates repeated a row another file imported. Rows holds the first
// MaxImportReasons reasons by line (Truncated when there were more). The list leaves Rows empty.
type ImportReport struct {
	ID               string            `json:"id"`
	Format           string            `json:"format"`
	FileName         string            `json:"file_name"`
	SHA256           string            `json:"sha256"`
	UploadedBy       string            `json:"uploaded_by"`
	CreatedAt        time.Time         `json:"created_at"`
	Repeat           bool              `json:"repeat"`
	Total            int               `json:"total"`
	Accepted         int               `json:"accepted"`
	Flagged          int               `json:"flagged"`
	Refused          int               `json:"refused"`
	Duplicates       int               `json:"duplicates"`
	Plays            int64             `json:"plays"`
	Rows             []ImportRowReason `json:"rows"`
	Truncated        bool              `json:"truncated"`
	UnmappedDisplays []string          `json:"unmapped_displays"`
	UnmappedMedia    []string          `json:"unmapped_media"`
}

// ImportList answers GET /api/admin/screens/imports: the latest 50 imports, newest first.
type ImportList struct {
	Items []ImportReport `json:"items"`
}

// DisplayMapping ties a CMS's display reference to a face.
type DisplayMapping struct {
	Ref    string `json:"ref" validate:"singleline"`
	FaceID string `json:"face_id" validate:"singleline"`
}

// MediaMapping ties a CMS's media reference to a campaign's creative.
type MediaMapping struct {
	Ref        string `json:"ref" validate:"singleline"`
	CampaignID string `json:"campaign_id" validate:"singleline"`
	CreativeID string `json:"creative_id" validate:"singleline"`
}

// Mappings are every mapping (GET), or the ones to set (PUT: a display with an empty face_id, or
// a media with an empty creative_id, is unmapped; the refs not named are left as they are).
type Mappings struct {
	Displays []DisplayMapping `json:"displays" validate:"dive"`
	Media    []MediaMapping   `json:"media" validate:"dive"`
}
