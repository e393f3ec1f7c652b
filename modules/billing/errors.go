package billing

import (
	"errors"

	"marquee/modules/billing/internal/gateway"
	"marquee/platform/apperr"
)

// CardError is a card the gateway refused: its code and message are the gateway's own (Stripe's
// wording), which the web app maps to the messages of B §8.
type CardError = gateway.CardError

// cardError wraps a refused card as an application error: EPAYMENT (HTTP 402) with the gateway's
// message, its code as the Reason (the envelope's `code`), and the *CardError as the cause
// (AsCardError finds it).
func cardError(ce *CardError) error {
	return &apperr.Error{Code: apperr.EPAYMENT, Message: ce.Message, Reason: ce.Code, Cause: ce}
}

// AsCardError returns the card error err carries, if any.
func AsCardError(err error) (*CardError, bool) {
	var ce *CardError
	ok := errors.As(err, &ce)
	return ce, ok
}
