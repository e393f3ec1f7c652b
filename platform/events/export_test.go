package events

// What the external tests (package events_test, which may import testkit) need of the inside.

var Backoff = backoff

const ClaimLease = claimLease

// ClaimEvent claims an event as Dispatch would, and then delivers nothing: a dispatcher that died.
var ClaimEvent = (*Bus).claim
