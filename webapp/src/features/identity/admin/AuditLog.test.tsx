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
  actor_name: 'Ada Admin',
  moderator_id: '',
  moderator_email: '',
  moderator_name: '',
  action: 'moderate.signin',
  object_type: 'user',
  object_id: 'u9',
  object_name: 'Avery Advertiser',
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
    expect(within(row).getByText('Ada Admin')).toBeInTheDocument()
    expect(within(row).getByText('admin@marquee.demo')).toBeInTheDocument()
    // The object by name, linked to the user grid searching its email.
    expect(within(row).getByRole('link', { name: 'Avery Advertiser' })).toHaveAttribute('href', '/admin/users?q=advertiser%40marquee.demo')
    await user.click(within(row).getByText('1 field: email'))
    expect(within(row).getByRole('rowheader', { name: 'email' })).toBeInTheDocument()
    expect(within(row).getByText('advertiser@marquee.demo')).toBeInTheDocument()
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

  it('names the admin behind a moderated change and shows only the changed fields', async () => {
    const moderated: Entry = {
      ...entry,
      id: 'a2',
      actor_id: 'u9',
      actor_email: 'advertiser@marquee.demo',
      actor_name: 'Avery Advertiser',
      moderator_id: 'u1',
      moderator_email: 'admin@marquee.demo',
      moderator_name: 'Ada Admin',
      action: 'user.update',
      before: { first_name: 'Avery', phone: '4155550100', email: 'advertiser@marquee.demo' },
      after: { first_name: 'Avery', phone: '4155550199', email: 'advertiser@marquee.demo' },
    }
    mockFetch({ 'GET /api/admin/audit/': { body: { items: [moderated], total: 1, page: 1, page_size: 50 } } })
    const user = userEvent.setup()
    renderApp('/admin/audit', { session: signedInSession(makeUser({ role: 'admin' })) })
    const grid = await screen.findByRole('table', { name: 'Audit log' })
    const row = (await within(grid).findByText('user.update')).closest('tr')!
    expect(within(row).getByText(/by admin/)).toHaveTextContent('by admin Ada Admin (admin@marquee.demo), signed in as this user')
    await user.click(within(row).getByText('1 field: phone'))
    const diff = within(row).getByRole('table', { name: 'Changed fields' })
    expect(within(diff).getAllByRole('row')).toHaveLength(2) // the header and phone: unchanged fields are left out
    expect(within(diff).getByText('4155550100')).toBeInTheDocument()
    expect(within(diff).getByText('4155550199')).toBeInTheDocument()
  })

  it('opens filtered by the link of an object', async () => {
    const server = mockFetch({ 'GET /api/admin/audit/': { body: { items: [], total: 0, page: 1, page_size: 50 } } })
    renderApp('/admin/audit?object_type=campaign_week&object_id=w1', { session: signedInSession(makeUser({ role: 'admin' })) })
    await waitFor(() => expect(server.called('GET', '/api/admin/audit/').length).toBeGreaterThan(0))
    const q = server.called('GET', '/api/admin/audit/').at(-1)!.query
    expect([q.get('object_type'), q.get('object_id')]).toEqual(['campaign_week', 'w1'])
    expect(screen.getByLabelText('Object id')).toHaveValue('w1')
  })

  it('is for admins only', async () => {
    mockFetch({})
    const { router } = renderApp('/admin/audit', { session: signedInSession(makeUser()) })
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })
})
