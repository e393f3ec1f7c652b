import { configure, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { Screen } from '../../../platform/api-types/screens'
import { makeFace } from '../../../test/faces'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

configure({ asyncUtilTimeout: 5000 })

const face = makeFace({ location_name: 'Market St & 5th', face: 'North Face' })
const admin = () => signedInSession(makeUser({ role: 'admin' }))

function makeScreen(overrides: Partial<Screen> = {}): Screen {
  return {
    id: 's1', face_id: face.id, location: 'Market St & 5th North Face', lat: face.lat, lng: face.lng, status: 'active', health: 'online',
    paired_at: new Date().toISOString(), last_seen_at: new Date().toISOString(), app_version: 'marquee-player/1.0', free_disk_bytes: 2 * 1024 ** 3,
    current_creative_id: '', last_error: '', plays_today: 90, expected_today: 100, ...overrides,
  }
}

function serve(list: () => { status?: number; body: unknown }) {
  return mockFetch({
    'GET /api/admin/screens': list,
    'GET /api/map/config': { body: { tile_url: '', attribution: 'Test tiles', offline: true } },
    'GET /api/od/locations/': { body: [face] },
    'POST /api/admin/screens/pairing-codes': (req) => ({
      status: 201,
      body: { code: 'ABCD-EFGH-JKMN', face_id: (req.body as { face_id: string }).face_id, expires_at: new Date(Date.now() + 24 * 3_600_000).toISOString() },
    }),
    'POST /api/admin/screens/s1/revoke': { body: makeScreen({ status: 'revoked' }) },
  })
}

// Generous: the map and the dialog take a few seconds in jsdom on a loaded machine.
describe('/admin/screens (issue 28 §6)', { timeout: 20_000 }, () => {
  it('says when no screen is paired, and pairs one: the code once, its expiry and the command', async () => {
    const server = serve(() => ({ body: { items: [], total: 0 } }))
    const user = userEvent.setup()
    renderApp('/admin/screens', { session: admin() })
    expect(await screen.findByText(/No screen is paired yet/)).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Pair a screen' }))
    const dialog = await screen.findByRole('dialog', { name: 'Pair a screen' })
    expect(within(dialog).getByRole('button', { name: 'Get a pairing code' })).toBeDisabled()
    await user.type(within(dialog).getByLabelText('Find a face'), 'market 5th')
    await user.click(await within(dialog).findByRole('radio', { name: /Market St & 5th, North Face/ }))
    await user.click(within(dialog).getByRole('button', { name: 'Get a pairing code' }))
    expect(await within(dialog).findByTestId('pairing-code')).toHaveTextContent('ABCD-EFGH-JKMN')
    expect(within(dialog).getByText(/\(in 24 h\)/)).toBeInTheDocument()
    expect(within(dialog).getByTestId('player-command')).toHaveTextContent(`marquee dev player --server '${window.location.origin}' --pairing-code 'ABCD-EFGH-JKMN'`)
    expect(server.called('POST', '/api/admin/screens/pairing-codes').at(-1)!.body).toEqual({ face_id: face.id })
  })

  it('lists a screen with its health and plays, and revokes it after a confirmation', async () => {
    let revoked = false
    const server = serve(() => ({ body: { items: [makeScreen(revoked ? { status: 'revoked' } : {})], total: 1 } }))
    const user = userEvent.setup()
    renderApp('/admin/screens', { session: admin() })
    const table = await screen.findByRole('table', { name: 'Screens' })
    const row = (await within(table).findByText('marquee-player/1.0')).closest('tr')!
    expect(row).toHaveTextContent('Online')
    expect(row).toHaveTextContent('2.0 GB')
    expect(row).toHaveTextContent('90 of 100 (90%)')

    await user.click(within(row).getByRole('button', { name: 'Revoke the screen at Market St & 5th, North Face' }))
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this screen?' })
    expect(server.called('POST', '/api/admin/screens/s1/revoke')).toEqual([])
    revoked = true
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }))
    expect(await screen.findByText('The screen at Market St & 5th, North Face is revoked.')).toBeInTheDocument()
    expect(server.called('POST', '/api/admin/screens/s1/revoke')).toHaveLength(1)
  })

  it('shows the error when the list cannot be read', async () => {
    serve(() => ({ status: 403, body: { success: false, message: 'Forbidden.' } }))
    renderApp('/admin/screens', { session: admin() })
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry! Forbidden.')
  })
})
