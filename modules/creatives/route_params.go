package creatives

// The query parameters of the module's routes, for the OpenAPI document (server.Route.Params).

// CompanyQuery names the company an admin acts for (ignored for others).
type CompanyQuery struct {
	Company string `query:"company" validate:"max=200" doc:"A company id (admins)."`
}

// SizedQuery is CompanyQuery with a face's ad size.
type SizedQuery struct {
	Company string `query:"company" validate:"max=200" doc:"A company id (admins)."`
	Width   int    `query:"width" validate:"min=1,max=20000" doc:"The face's ad width in pixels."`
	Height  int    `query:"height" validate:"min=1,max=20000" doc:"The face's ad height in pixels."`
}

// ContentUploadQuery is /upload_file's.
type ContentUploadQuery struct {
	Type string `query:"type" validate:"oneof=image video document doc" doc:"Narrows the files taken."`
}

// FileQuery names a stored image.
type FileQuery struct {
	Image    string `query:"image" validate:"required,max=512" doc:"The file's key."`
	Thumb    string `query:"thumb" validate:"oneof=0 1" doc:"1: the thumbnail."`
	Original string `query:"original" validate:"oneof=0 1" doc:"1: the original, not the display copy."`
}

// storedTypes are the media types of a stored file: creatives and proofs are images, contents and
// reports may be videos and documents too.
var storedTypes = []string{"*/*"}

// PreviewQuery is GET /api/creatives/{id}/preview's.
type PreviewQuery struct {
	Face  string `query:"face" validate:"required,max=36" doc:"The face's id."`
	Light string `query:"light" validate:"oneof=day night" doc:"day (default) or night."`
	View  string `query:"view" validate:"oneof=photo driveby" doc:"photo (default) or driveby: as a driver sees it at the face's viewing distance."`
}

// PreflightUploadQuery names the faces of a pre-flight of an uploaded image (multipart body).
type PreflightUploadQuery struct {
	FaceIDs string `query:"face_ids" validate:"max=8000" doc:"Comma list of face ids (multipart only; JSON bodies give face_ids)."`
}
