import { configure, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { Endpoint } from '../../platform/api-types/webhooks'
import { mockFetch } from '../../test/fetch'
import { renderApp } from '../../test/renderApp'
import { makeUser, signedInSession } from '../../test/users'

configure({ asyncUtilTimeout: 5000 })
vi.setConfig({ testTimeout: 30_000 })

const EVENT_TYPES = ['campaign.activated', 'campaign.paused', 'campaign.completed', 'payment.failed', 'week.delivered', 'proof.added', 'report.ready', 'make_good.granted']
const MSG_PRIVATE = 'The URL must point at a public internet address, not a private, loopback, link-local or metadata one.'

const disabled: Endpoint = {
  id: 'ep1',
  url: 'https://hooks.example.com/marquee',
  description: '',
  events: ['campaign.paused'],
  enabled: false,
  disabled_at: '2026-11-23T12:00:00Z',
  disabled_reason: 'Every delivery failed for 24 hours.',
  failing_since: '2026-11-22T12:00:00Z',
  created_at: '2026-11-20T12:00:00Z',
}

describe('/settings → API: webhooks (issue 18)', () => {
  it("shows the server's URL refusal beside the field, and enables a disabled endpoint again", async () => {
    const server = mockFetch({
      'GET /api/webhooks': { body: { success: true, endpoints: [disabled], event_types: EVENT_TYPES } },
      'POST /api/webhooks': { status: 400, body: { success: false, message: MSG_PRIVATE, errors: { url: MSG_PRIVATE } } },
      'PUT /api/webhooks/ep1': { body: { success: true, message: 'The webhook endpoint has been updated.', endpoint: { ...disabled, enabled: true } } },
    })
    const user = userEvent.setup()
    renderApp('/settings?tab=api', { session: signedInSession(makeUser()) })
    const card = await screen.findByTestId('webhook-endpoint')
    expect(within(card).getByText(/Disabled: Every delivery failed for 24 hours/)).toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Send test event' })).toBeDisabled()

    await user.click(screen.getByRole('button', { name: 'Add endpoint' }))
    const add = await screen.findByRole('dialog', { name: 'Add webhook endpoint' })
    // The field says what it accepts, and that make run also takes the demo's local receiver.
    expect(within(add).getByLabelText('Endpoint URL')).toHaveAccessibleDescription(/public internet address.*make run.*http:\/\/127\.0\.0\.1:8090\/hooks/)
    await user.type(within(add).getByLabelText('Endpoint URL'), 'https://169.254.169.254/latest')
    await user.click(within(add).getByLabelText('Payment failed'))
    await user.click(within(add).getByRole('button', { name: 'Add endpoint' }))
    expect(await within(add).findByText(MSG_PRIVATE)).toBeInTheDocument()
    expect(within(add).getByLabelText('Endpoint URL')).toHaveAttribute('aria-invalid', 'true')
    expect(within(add).getByLabelText('Endpoint URL')).toHaveAccessibleDescription(new RegExp(`${MSG_PRIVATE}$`))
    expect(server.called('POST', '/api/webhooks')[0]!.body).toEqual({ url: 'https://169.254.169.254/latest', description: '', events: ['payment.failed'] })
    await user.click(within(add).getByRole('button', { name: 'Cancel' }))

    await user.click(within(card).getByRole('button', { name: 'Edit' }))
    const edit = await screen.findByRole('dialog', { name: 'Edit webhook endpoint' })
    await user.click(within(edit).getByLabelText('Enabled'))
    await user.click(within(edit).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('The webhook endpoint has been updated.')).toBeInTheDocument()
    expect(server.called('PUT', '/api/webhooks/ep1')[0]!.body).toMatchObject({ url: disabled.url, events: ['campaign.paused'], enabled: true })
  })
})
