package billing

import (
	"errors"

	"marquee/modules/billing/internal/gateway"
	"marquee/platform/apperr"
)

// CardError is a card the gateway refused: its code and message are the gateway's own (Stripe's
// wording), which the web app maps to the messages of B §8. HTTP answers it with 402 and
// CardErrorResponse.
type CardError = gateway.CardError

// cardError wraps a refused card as an application error: EINVALID with the gateway's message,
// whose cause is the *CardError (AsCardError finds it).
func cardError(ce *CardError) error {
	return &apperr.Error{Code: apperr.EINVALID, Message: ce.Message, Cause: ce}
}

// AsCardError returns the card error err carries, if any.
func AsCardError(err error) (*CardError, bool) {
	var ce *CardError
	ok := errors.As(err, &ce)
	return ce, ok
}
