package campaigns

// Signed proof of play (docs/delivery-assurance.md "Signed proof of play"): the DTOs of
// the public /api/verify/{code} and of the verification codes on the detail page.

// MsgVerifyNotFound answers an unknown or malformed verification code (the same answer for both).
const MsgVerifyNotFound = "No proof-of-play record has this verification code."

// ProofRecordProof is one proof image of a record: its id, the SHA-256 of its stored bytes (a
// signed field), and where the public page loads it (a path that needs the record's code). Status
// is what the check of the served file found: matches, mismatch or missing (PhotoMatches...;
// empty in the chain export, whose verifier hashes the files itself).
type ProofRecordProof struct {
	ID     string `json:"id"`
	SHA256 string `json:"sha256"`
	URL    string `json:"url"`
	Thumb  string `json:"thumb"`
	Status string `json:"status,omitempty"`
}

// ProofRecordView is a proof-of-play record as /api/verify/{code} shows it. Canonical is the exact
// signed text; Hash is its SHA-256 (hex), Signature the Ed25519 signature of Canonical (base64).
// It names the face and the week but neither the company nor the campaign's name.
type ProofRecordView struct {
	Code        string             `json:"code"`
	Seq         int64              `json:"seq"`
	Week        string             `json:"week"`
	WeekEnd     string             `json:"week_end"`
	Location    string             `json:"location"`
	Market      string             `json:"market"`
	Impressions *int64             `json:"impressions"`
	Reason      string             `json:"reason"`
	Replaces    string             `json:"replaces"`
	RecordedAt  string             `json:"recorded_at"`
	Proofs      []ProofRecordProof `json:"proofs"`
	PrevHash    string             `json:"prev_hash"`
	Hash        string             `json:"hash"`
	Signature   string             `json:"signature"`
	KeyID       string             `json:"key_id"`
	Canonical   string             `json:"canonical"`
}

// ChainProblem is a place where a chain breaks: the record (by seq) and why.
type ChainProblem struct {
	Seq    int64  `json:"seq"`
	Reason string `json:"reason"`
}

// VerifyResult answers GET /api/verify/{code}: the record, whether its signature is valid, whether
// the chain from the campaign's first record up to it is intact, and the breaks found. Superseded
// is true when a later record (a correction) replaces this one.
type VerifyResult struct {
	Record         ProofRecordView `json:"record"`
	Valid          bool            `json:"valid"`
	SignatureValid bool            `json:"signature_valid"`
	ChainValid     bool            `json:"chain_valid"`
	ChainLength    int64           `json:"chain_length"`
	Problems       []ChainProblem  `json:"problems"`
	PhotosValid    bool            `json:"photos_valid"` // every proof photo served is the one signed
	Superseded     bool            `json:"superseded"`
	SupersededAt   string          `json:"superseded_at"`
	SupersededBy   string          `json:"superseded_by"` // the code of the record that replaces it
	ChainURL       string          `json:"chain_url"`     // the whole chain (ProofChainExport)
	PublicKey      string          `json:"public_key"`    // raw 32 bytes, base64
	PublicKeyURL   string          `json:"public_key_url"`
	// Device is the screen's signature of a device batch's record (null for other records).
	Device *DeviceSignatureView `json:"device"`
	// CheckedFrom is the checkpoint the chain was checked from: the records up to it were
	// verified (every hash, link and signature) when CheckpointVerifiedAt says, and this check
	// walked the links from it to the record. 0 (and "") when it walked from the first record
	// (docs/delivery-assurance.md "Checkpoints").
	CheckedFrom          int64  `json:"checked_from"`
	CheckpointVerifiedAt string `json:"checkpoint_verified_at"`
}

// DeviceSignatureView is what a screen signed for a batch of plays, and whether its Ed25519
// signature over Message holds with PublicKey and Message names BatchHash (docs/screens.md).
type DeviceSignatureView struct {
	ScreenID  string `json:"screen_id"`
	PublicKey string `json:"public_key"` // base64 of 32 bytes
	BatchHash string `json:"batch_hash"`
	Message   string `json:"message"`
	Signature string `json:"signature"` // base64
	Plays     int64  `json:"plays"`
	Valid     bool   `json:"valid"`
}

// WeekProofCode is the verification code of a week's current record (the newest of its chain
// records) for the detail page and the report PDF.
type WeekProofCode struct {
	WeekID      string `json:"week_id"`
	Week        string `json:"week"`
	FaceID      string `json:"face_id"`
	Location    string `json:"location"` // the face's location name and face, as the week row has them
	Code        string `json:"code"`
	Seq         int64  `json:"seq"`
	RecordedAt  string `json:"recorded_at"`
	Impressions *int64 `json:"impressions"`
	Records     int    `json:"records"` // how many records the week has (more than 1: corrected, unless signed by its screen)
	// SignedByScreen: the current record holds a screen's signed batch (docs/screens.md). A
	// screen-fed week has a record per batch, each with the week's figure so far, so its count of
	// records says nothing about corrections.
	SignedByScreen bool `json:"signed_by_screen"`
}

// ProofCodes answers GET /api/campaigns/{id}/proof-codes.
type ProofCodes struct {
	Weeks []WeekProofCode `json:"weeks"`
}

// ProofChainRecord is one record of a chain export: its code, the exact signed text, its SHA-256
// (hex) and Ed25519 signature (base64), whether a later record replaces it, and its proofs.
type ProofChainRecord struct {
	Seq        int64              `json:"seq"`
	Code       string             `json:"code"`
	Canonical  string             `json:"canonical"`
	Hash       string             `json:"hash"`
	Signature  string             `json:"signature"`
	Superseded bool               `json:"superseded"`
	Proofs     []ProofRecordProof `json:"proofs"`
}

// ProofChainExport answers GET /api/verify/{code}/chain: the chain of the record's campaign,
// first record first, by pages of at most ChainPageRecords records, and the key to check it with.
type ProofChainExport struct {
	KeyID        string             `json:"key_id"`
	PublicKey    string             `json:"public_key"` // raw 32 bytes, base64
	PublicKeyURL string             `json:"public_key_url"`
	Records      []ProofChainRecord `json:"records"`
	// Next is the URL of the next page (the records after this page's last), "" on the last page.
	Next string `json:"next"`
}

// ChainPageRecords is the most records one answer of GET /api/verify/{code}/chain holds: the
// route is public, and a screen-fed chain has millions (docs/delivery-assurance.md).
const ChainPageRecords = 5000
