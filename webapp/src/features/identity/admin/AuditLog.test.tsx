import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'
import type { Entry } from '../../../platform/api-types/audit'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })
vi.setConfig({ testTimeout: 30_000 })

const entry: Entry = {
  id: 'a1',
  actor_id: 'u1',
  actor_email: 'admin@marquee.demo',
  moderator_id: '',
  action: 'moderate.signin',
  object_type: 'user',
  object_id: 'u9',
  before: null,
  after: { email: 'advertiser@marquee.demo' },
  ip: '127.0.0.1',
  created_at: '2026-11-24T10:00:00Z',
}

describe('the admin audit log', () => {
  it('lists the entries newest first and filters by actor, action, object and dates on the server', async () => {
    const server = mockFetch({ 'GET /api/admin/audit/': { body: { items: [entry], total: 1, page: 1, page_size: 50 } } })
    const user = userEvent.setup()
    renderApp('/admin/audit', { session: signedInSession(makeUser({ role: 'admin' })) })
    const grid = await screen.findByRole('table', { name: 'Audit log' })
    const row = (await within(grid).findByText('moderate.signin')).closest('tr')!
    expect(within(row).getByText('admin@marquee.demo')).toBeInTheDocument()
    expect(within(row).getByText('user u9')).toBeInTheDocument()
    await user.click(within(row).getByText('Show'))
    expect(within(row).getByText('{"email":"advertiser@marquee.demo"}')).toBeInTheDocument()
    expect(server.calls[0]!.query.get('sort')).toBe('-created_at')

    await user.type(screen.getByLabelText('Who'), 'admin@')
    await user.type(screen.getByLabelText('Action'), 'user.disable')
    await user.selectOptions(screen.getByLabelText('Object type'), 'user')
    await user.type(screen.getByLabelText('Object id'), 'u9')
    await user.type(screen.getByLabelText('From'), '2026-11-01')
    await user.type(screen.getByLabelText('To'), '2026-11-30')
    await waitFor(() => {
      const q = server.calls.at(-1)!.query
      expect([q.get('actor'), q.get('action'), q.get('object_type'), q.get('object_id'), q.get('from'), q.get('to')]).toEqual([
        'admin@',
        'user.disable',
        'user',
        'u9',
        '2026-11-01',
        '2026-11-30',
      ])
    })
  })

  it('is for admins only', async () => {
    mockFetch({})
    const { router } = renderApp('/admin/audit', { session: signedInSession(makeUser()) })
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })
})
