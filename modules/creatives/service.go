// Package creatives manages uploads (creatives, content files, temporary files, the builder's PNG,
// report PDFs), the content library, the companies' creatives and the creative request (A §4-§9,
// B §2, §5, §7; DESIGN.md §2). This root package is the module's only public API: the Service
// interface, its DTOs, requests, limits and messages. Everything else lives in internal/.
package creatives

import (
	"context"
	"io"
	"time"
)

// Upload kinds: one per upload call (A §7, B §7). A stored file remembers its kind.
const (
	KindCreative        = "creative"         // POST /upload_creative: one jpeg or tif
	KindCreativeLibrary = "creative_library" // POST /upload_creative_library: up to 20 images
	KindTemp            = "temp"             // POST /upload_temp: up to 20 images, removed after a day unless used
	KindContent         = "content"          // POST /upload_file?type=: content library files
	KindCreativeImage   = "creative_image"   // POST /upload_creative_image: the builder's 1400x400 png
	KindReport          = "report"           // POST /upload_report: a PDF, for reports
	KindProof           = "proof"            // registered by campaigns through StoreFile; served by /proof/image
)

// Upload limits (A §5, §9; B §5, §9). Sizes are checked while reading: a larger file answers 413
// and is never stored.
const (
	MaxCreativeBytes  = 10 << 20    // the creative dropzone: 10 MB (A §9)
	MaxFileBytes      = 20 << 20    // library, temp and content files: 20 MB each
	MaxReportBytes    = 10000 << 10 // B §5: "maximum size 10000", read as kilobytes
	MaxFilesPerUpload = 20          // A §9: "up to 20 files otherwise"
	// MaxImagePixels refuses a pixel flood (a small file announcing huge dimensions) before it is
	// decoded: 25 megapixels (a 6000x4000 photo) is far above any billboard creative, and bounds the
	// memory of a decode (about 1.5 bytes a pixel for JPEG, 4 for PNG or TIFF). The check is
	// platform/imagecheck's; the figures are repeated here as literals for the generated
	// TypeScript (tygo reads no other package), and TestImageLimitsAreTheCheckers holds them equal.
	MaxImagePixels = 25_000_000
	// MaxImageSide refuses absurd single dimensions even when the product fits.
	MaxImageSide = 20_000
	// ThumbMaxSide is the longest side of a converted_thumb.
	ThumbMaxSide = 320
	// BuilderWidth and BuilderHeight are the size of the builder's export (A §9).
	BuilderWidth  = 1400
	BuilderHeight = 400
	// TempFileTTLHours is how long an unused /upload_temp file is kept.
	TempFileTTLHours = 24
)

// Content types (A §4). The older value doc reads as document.
const (
	ContentDocument = "document"
	ContentImage    = "image"
	ContentVideo    = "video"
	ContentYoutube  = "youtube"
	// ContentLegacyDoc is the older stored value of ContentDocument.
	ContentLegacyDoc = "doc"
)

// Content scopes are the company types (A §4).
const (
	ScopeStandard   = "standard"
	ScopeAmbassador = "ambassador"
	ScopeCertified  = "certified"
)

// Content statuses (A §5).
const (
	StatusActive   = "active"
	StatusInactive = "inactive"
)

// Page sizes (A §9): the content list 50, 75, 100, All (default 50); the creatives list 10, 20, 50,
// All. 0 means All.
var (
	ContentPageSizes  = []int{50, 75, 100, 0}
	CreativePageSizes = []int{10, 20, 50, 0}
)

// Messages of A §5 and §8, word for word, and of this module.
const (
	MsgCreativeType      = "Sorry, the upload cannot be completed. Please ensure the file has extension .jpeg or .jpg"
	MsgContentType       = "Sorry, the upload cannot be completed. Please upload an image, a video, or a pdf, doc, docx, xls or xlsx document."
	MsgContentTypeKind   = "Sorry, the upload cannot be completed. The file does not match the chosen content type."
	MsgImageType         = "Sorry, the upload cannot be completed. Please upload jpeg, png, gif or tif images."
	MsgBuilderType       = "Sorry, the upload cannot be completed. The ad must be a 1400x400 png image."
	MsgReportType        = "Sorry, the upload cannot be completed. The report must be a PDF file."
	MsgNoFile            = "Please choose a file to upload."
	MsgEmptyFile         = "The file is empty."
	MsgTooManyFiles      = "You can upload at most 20 files at once."
	MsgOneFile           = "Please upload one file at a time."
	MsgCreativeTooLarge  = "The file is too large: a creative can be at most 10 MB."
	MsgFileTooLarge      = "The file is too large: each file can be at most 20 MB."
	MsgReportTooLarge    = "The file is too large: a report can be at most 10000 KB."
	MsgCorruptImage      = "The image could not be read. Please check the file and try again."
	MsgImageTooBig       = "The image is too large: at most 25 megapixels and 20000 pixels a side."
	MsgImageTooHeavy     = "The image is too large to process. Please save it with fewer pixels, or 8 bits per colour."
	MsgRequestTooLarge   = "The files are too large together: one upload can carry at most %d MB."
	MsgStorageFull       = "Your company's storage is full (%d MB). Please delete creatives you no longer use and try again."
	MsgUploadTooFast     = "You are uploading too many files. Please wait a minute and try again."
	MsgCreativeSize      = "The creative does not have the size this face needs."
	MsgBadSize           = "Width and height must be whole numbers of pixels."
	MsgUploadContent     = "Sorry! you must first upload your content"
	MsgUploadCreative    = "Sorry! you must first upload your creative"
	MsgYoutubeLink       = "Please paste a YouTube link with a v parameter, like https://www.youtube.com/watch?v=..."
	MsgContentSaved      = "Content uploaded successfully"
	MsgCreativeSaved     = "Creative uploaded successfully"
	MsgSaveFailed        = "Sorry! something went wrong, please try again"
	MsgUploadFailed      = "A unexpected error has occurred"
	MsgCreativeRequested = "Thank you for your Creative request - Someone will be in touch with you shortly"
	MsgCreativeRequestKO = "Unexpected Error."
	MsgDeleteContent     = "Are you sure you want to delete this content?"
	MsgDeleteCreative    = "Are you sure you want to delete the creative?"
	MsgBuildHint         = "To build your own ad, click the Creatives menu and then select Ad Design Tool"
	MsgContentNotFound   = "Content not found."
	MsgCreativeNotFound  = "Creative not found."
	MsgFileNotFound      = "File not found."
	MsgCompanyNotFound   = "Company not found."
	MsgInvalidContent    = "Please check the content fields."
	MsgInvalidCreative   = "Please check the creative fields."
	MsgInvalidRequest    = "Please give your email and full name."
	MsgTooManyRequests   = "Too many requests. Please wait a minute and try again."
)

// UploadedFile answers an upload (A §7): filename is the stored name, originalname the name the
// browser sent, path the storage key that the client then saves as a url.
type UploadedFile struct {
	Filename     string `json:"filename"`
	Originalname string `json:"originalname"`
	Path         string `json:"path"`
	// Preflight is the pre-flight of a creative upload (/upload_creative) on the reference face
	// (docs/creatives.md); absent for other uploads.
	Preflight *PreflightReport `json:"preflight,omitempty"`
}

// File is a stored, owned upload. Other modules use it to check ownership (FindFile).
type File struct {
	Key          string    `json:"key"`
	CompanyID    string    `json:"company"`
	UploaderID   string    `json:"uploader"`
	Kind         string    `json:"kind"`
	ContentType  string    `json:"content_type"`
	Size         int64     `json:"size"`
	OriginalName string    `json:"original_name"`
	ThumbKey     string    `json:"thumb_key"`
	DisplayKey   string    `json:"display_key"` // a web-format copy of a TIFF; empty otherwise
	Width        int       `json:"width"`
	Height       int       `json:"height"`
	CreatedAt    time.Time `json:"created_at"`
}

// Content is a content library item as the API shows it (A §4).
type Content struct {
	ID          string    `json:"id"`
	CustomName  string    `json:"customName"` // the stored file name; empty for youtube items
	Name        string    `json:"name"`       // the title shown on the card
	Type        string    `json:"type"`       // document, image, video or youtube (stored doc reads as document)
	Scope       []string  `json:"scope"`
	Tags        []string  `json:"tags"`
	Status      string    `json:"status"`
	Description string    `json:"description"`
	Relevant    bool      `json:"relevant"`
	AwsURL      string    `json:"awsUrl"` // where the browser loads the file; empty for youtube items
	URL         string    `json:"url"`    // the storage key
	Thumb       string    `json:"thumb"`  // the thumbnail's address, for images
	Youtube     string    `json:"youtube"`
	CreatedAt   time.Time `json:"created_at"`
}

// ContentFile is the uploaded file of a new content item.
type ContentFile struct {
	Name string `json:"name" validate:"singleline"`
	Alt  string `json:"alt" validate:"singleline"`
	URL  string `json:"url" validate:"singleline"`
}

// CreateContentRequest is POST /api/contents/ (A §7). For a youtube item, Youtube holds the pasted
// link and Content.URL is empty.
type CreateContentRequest struct {
	Type    string      `json:"type" validate:"singleline"`
	Content ContentFile `json:"content"`
	Scopes  []string    `json:"scopes" validate:"dive,singleline"`
	Tags    []string    `json:"tags" validate:"dive,singleline"`
	Youtube string      `json:"youtube" validate:"singleline"`
}

// UpdateContentRequest is PUT /api/contents/{id} (A §7).
type UpdateContentRequest struct {
	ID          string   `json:"id" validate:"singleline"`
	Name        string   `json:"name" validate:"singleline"`
	Type        string   `json:"type" validate:"singleline"`
	Scopes      []string `json:"scopes" validate:"dive,singleline"`
	Tags        []string `json:"tags" validate:"dive,singleline"`
	Status      string   `json:"status" validate:"singleline"`
	Description string   `json:"description" text:"multiline"`
}

// Creative is a company's creative as the API shows it (A §4).
type Creative struct {
	ID             string    `json:"id"`
	AwsURL         string    `json:"awsUrl"` // where the browser loads the image (a web copy for TIFF)
	Name           string    `json:"name"`
	Alt            string    `json:"alt"`
	URL            string    `json:"url"` // the storage key
	Company        string    `json:"company"`
	Reference      string    `json:"reference"` // a short code to quote to support
	ConvertedThumb string    `json:"converted_thumb"`
	Width          int       `json:"width"`
	Height         int       `json:"height"`
	IsDefault      bool      `json:"is_default"`
	CreatedAt      time.Time `json:"created_at"`
	// Preflight is the creative's pre-flight on the reference face (issue 29), from its builder
	// design or the analysis of its image on upload; null when it has neither (older uploads).
	Preflight *PreflightReport `json:"preflight"`
}

// CreativeFile is the uploaded file of a new creative.
type CreativeFile struct {
	Name string `json:"name" validate:"singleline"`
	Alt  string `json:"alt" validate:"singleline"`
	URL  string `json:"url" validate:"singleline"`
}

// CreateCreativeRequest is POST /api/creatives/. Company is honoured for admins only (B §2: an
// admin uploads a creative for a company); others always save for their own company.
type CreateCreativeRequest struct {
	Creative CreativeFile `json:"creative"`
	Company  string       `json:"company,omitempty" validate:"singleline"`
	// Design is the Ad Design Tool's design of the image, when the builder saves it: the
	// creative's pre-flight is then exact.
	Design *Design `json:"design,omitempty"`
}

// CreativeRequest is POST /users/creative: ask the team to build a creative (A §4).
type CreativeRequest struct {
	Email    string `json:"email" validate:"singleline"`
	FullName string `json:"full_name" validate:"singleline"`
	Message  string `json:"message,omitempty" text:"multiline"`
}

// SuccessResponse answers a delete.
type SuccessResponse struct {
	Success bool `json:"success"`
}

// MessageResponse is a success with a message.
type MessageResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// StoreFileRequest describes a file another module stores (a generated report, a proof).
type StoreFileRequest struct {
	CompanyID    string
	UploaderID   string // empty for a file the system made
	Kind         string // KindReport or KindProof
	OriginalName string
}

// AuditCreativeForCompany is the audit action of an admin's creative for another company
// (platform/audit).
const AuditCreativeForCompany = "creative.create_for_company"

// Service is the creatives module's public API for other modules and the composition root.
type Service interface {
	// FindFile returns the stored file under key. ENOTFOUND if there is none.
	FindFile(ctx context.Context, key string) (*File, error)
	// FindFilesByKeys returns the stored files under these keys; unknown keys are skipped.
	FindFilesByKeys(ctx context.Context, keys []string) ([]*File, error)
	// StoreFile checks r by its content (a PDF for KindReport, an image for KindProof), stores it
	// with its thumbnail and registers it for the company. EINVALID for a bad kind or content,
	// ETOOLARGE above the kind's limit. Nothing is left behind on failure.
	StoreFile(ctx context.Context, req StoreFileRequest, r io.Reader) (*File, error)
	// FindCreativesByIDs returns the creatives with these ids, in no particular order; missing ids
	// are skipped. The caller checks their company.
	FindCreativesByIDs(ctx context.Context, ids []string) ([]*Creative, error)
	// FindDefaultCreative returns the company's default creative. ENOTFOUND if it has none.
	FindDefaultCreative(ctx context.Context, companyID string) (*Creative, error)
	// PreviewPNG returns the in-situ preview of a creative of req.CompanyID on a face: the PNG
	// GET /api/creatives/{id}/preview answers, from the same renderer and cache. EINVALID for a
	// bad light or view, for a face without a photo (locations.MsgNoPhoto) or without screen
	// corners (locations.MsgNoCorners); ENOTFOUND for an unknown face or another company's
	// creative; the image errors of the endpoint for a creative that cannot be decoded.
	PreviewPNG(ctx context.Context, req PreviewRequest) ([]byte, error)
}
