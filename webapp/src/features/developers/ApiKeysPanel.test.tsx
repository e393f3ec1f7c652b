import { configure, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MsgAPIKeyName } from '../../platform/api-types/identity'
import { mockFetch } from '../../test/fetch'
import { renderApp } from '../../test/renderApp'
import { makeUser, signedInSession } from '../../test/users'

configure({ asyncUtilTimeout: 5000 })

const used = {
  id: 'k1', company: 'c1', name: 'Reporting', scope: 'read', prefix: 'mq_live_ab12', created_by: 'u1', created_at: '2026-11-20T10:00:00Z',
  last_used_at: '2026-11-24T09:30:00Z', last_used_ip: '203.0.113.7', revoked_at: null,
}

describe('settings: API keys (issue 18)', () => {
  it('shows an empty state, a field error, and a new key once', async () => {
    const keys: unknown[] = []
    const server = mockFetch({
      'GET /api/api-keys/': () => ({ body: keys }),
      'POST /api/api-keys/': (req) => {
        const body = req.body as { name: string; scope: string }
        if (!body.name.trim()) return { status: 400, body: { success: false, message: MsgAPIKeyName, errors: { name: MsgAPIKeyName } } }
        const key = { ...used, id: 'k2', name: body.name, scope: body.scope, prefix: 'mq_live_zz99', last_used_at: null, last_used_ip: '' }
        keys.push(key)
        return { status: 201, body: { success: true, key, secret: 'mq_live_zz99secret' } }
      },
    })
    const user = userEvent.setup()
    renderApp('/settings?tab=api', { session: signedInSession(makeUser()) })
    expect(await screen.findByText(/No API keys yet/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByText(MsgAPIKeyName)).toBeInTheDocument()

    await user.type(screen.getByLabelText('Key name'), 'Warehouse')
    await user.selectOptions(screen.getByLabelText('Scope'), 'read-write')
    await user.click(screen.getByRole('button', { name: 'Create key' }))
    expect(await screen.findByLabelText('New API key')).toHaveValue('mq_live_zz99secret')
    expect(server.called('POST', '/api/api-keys/').at(-1)!.body).toEqual({ name: 'Warehouse', scope: 'read-write' })
    const list = await screen.findByRole('list', { name: 'API keys' })
    expect(within(list).getByText('mq_live_zz99…')).toBeInTheDocument()
    expect(within(list).getByText('Last used: Never used')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Done' }))
    expect(screen.queryByLabelText('New API key')).not.toBeInTheDocument()
  })

  it('shows the last use and revokes a key after a confirmation', async () => {
    let keys = [used]
    const server = mockFetch({
      'GET /api/api-keys/': () => ({ body: keys }),
      'DELETE /api/api-keys/k1': () => {
        keys = []
        return { body: { success: true, message: 'API key revoked.' } }
      },
    })
    const user = userEvent.setup()
    renderApp('/settings?tab=api', { session: signedInSession(makeUser()) })
    expect(await screen.findByText(/from 203\.0\.113\.7/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Revoke Reporting' }))
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this API key?' })
    expect(server.called('DELETE', '/api/api-keys/k1')).toHaveLength(0)
    await user.click(within(dialog).getByRole('button', { name: 'Revoke key' }))
    expect(await screen.findByText(/No API keys yet/)).toBeInTheDocument()
    expect(server.called('DELETE', '/api/api-keys/k1')).toHaveLength(1)
  })
})
