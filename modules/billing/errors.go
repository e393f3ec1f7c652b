package billing

import (
	"marquee/modules/billing/internal/gateway"
	"marquee/platform/apperr"
)

// CardError is a card the gateway refused: its code and message are the gateway's own (Stripe's
// wording), which the web app maps to the messages of B §8.
type CardError = gateway.CardError

// cardError wraps a refused card as an application error: EPAYMENT (HTTP 402) with the gateway's
// message, its code as the Reason (the envelope's `code`), and the *CardError as the cause
// (errors.As finds it).
func cardError(ce *CardError) error {
	return &apperr.Error{Code: apperr.EPAYMENT, Message: ce.Message, Reason: ce.Code, Cause: ce}
}
