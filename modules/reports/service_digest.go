package reports

// The weekly digest's DTOs (docs/delivery-assurance.md "Weekly digest").

// DigestSetting answers GET and PUT /api/reports/digest: whether the company's weekly digest is
// on, and to whom it goes.
type DigestSetting struct {
	On bool `json:"on"`
	// Recipient is the email of the user who turned it on (empty when off).
	Recipient string `json:"recipient"`
	Message   string `json:"message,omitempty"`
}

// DigestRequest is PUT /api/reports/digest.
type DigestRequest struct {
	On bool `json:"on"`
}

// Messages of the digest setting.
const (
	MsgDigestOn  = "You will receive the weekly digest of your campaigns every Monday."
	MsgDigestOff = "The weekly digest is off."
)
