package billing

import (
	"context"
	"time"

	"marquee/platform/jobs"
)

// JobRetryPayments is the job that finishes pending charges and refunds.
const JobRetryPayments = "billing.retry-payments"

// JobPurgeSandboxTokens deletes the sandbox's expired card tokens (sandbox gateway only).
const JobPurgeSandboxTokens = "billing.purge-sandbox-tokens"

// Jobs retries the charges and refunds the gateway did not answer, with backoff (1 minute doubling
// to 1 hour), each with its own gateway idempotency key, so a card is charged once; with the
// sandbox gateway, it also purges expired card tokens.
func (m *Module) Jobs() []jobs.Job {
	js := []jobs.Job{{Name: JobRetryPayments, Every: 30 * time.Second, Run: m.RetryPayments}}
	if m.sandbox != nil {
		js = append(js, jobs.Job{Name: JobPurgeSandboxTokens, Every: time.Hour, Run: func(ctx context.Context) error {
			_, err := m.sandbox.PurgeTokens(ctx)
			return err
		}})
	}
	return js
}

// RetryPayments runs one pass of the retry job.
func (m *Module) RetryPayments(ctx context.Context) error {
	_, err := m.svc.retryPending(ctx)
	return err
}
