package events

import (
	"time"

	"marquee/platform/retry"
)

// What the external tests (package events_test, which may import testkit) need of the inside.

// Backoff is the package's retry delay after attempts failures.
func Backoff(attempts int) time.Duration { return retry.Backoff(attempts, retryBase, retryMax) }

const ClaimLease = claimLease

// ClaimEvent claims an event as Dispatch would, and then delivers nothing: a dispatcher that died.
var ClaimEvent = (*Bus).claim
