package locations

// The contract of the face photo upload (face_photo.go, docs/inventory.md "Face photos"): its
// limits and messages, generated into the web app's types (tygo.yaml).

// AuditFacePhoto is the audit action of an admin's new photo for a face.
const AuditFacePhoto = "face.photo"

const (
	// MaxFacePhotoBytes is the largest face photo upload: 20 MB, the app's limit for an image file
	// (docs/uploads.md).
	MaxFacePhotoBytes = 20 << 20
	// FacePhotoMaxSide is the longest side of a stored face photo: 1600 px keeps the screen of a
	// face shot from the road at several hundred pixels, more than the preview needs.
	FacePhotoMaxSide = 1600
	// FacePhotosPerMinute bounds the photos one admin uploads a minute: each is a full decode.
	FacePhotosPerMinute = 20
)

// The answers of the face photo upload (the image checks answer imagecheck's messages).
const (
	MsgFacePhotoMissing  = "Please choose a photo to upload."
	MsgFacePhotoTooLarge = "The photo is too large: at most 20 MB."
	MsgFacePhotoType     = "The photo must be a JPEG, PNG or WebP image."
	MsgFacePhotoTooFast  = "You are uploading too many photos. Please wait a minute and try again."
)
