package billing

import (
	"context"
	"time"

	"marquee/platform/jobs"
)

// JobRetryPayments is the job that finishes pending charges and refunds.
const JobRetryPayments = "billing.retry-payments"

// Jobs retries the charges and refunds the gateway did not answer, with backoff (1 minute doubling
// to 1 hour), each with its own gateway idempotency key, so a card is charged once.
func (m *Module) Jobs() []jobs.Job {
	return []jobs.Job{{Name: JobRetryPayments, Every: 30 * time.Second, Run: m.RetryPayments}}
}

// RetryPayments runs one pass of the retry job.
func (m *Module) RetryPayments(ctx context.Context) error {
	_, err := m.svc.retryPending(ctx)
	return err
}
