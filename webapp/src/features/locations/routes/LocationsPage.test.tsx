import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { MsgRadiusInvalid, type Location, type LocationColumns } from '../../../platform/api-types/locations'
import { mockFetch, type FakeRoute } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { anonymousSession } from '../../../test/users'
import { BAY_AREA, CHICAGO, makeFace, makeSpot } from '../../../test/faces'
import { sendEarly } from '../../../platform/http'
import { FIRST_REQUESTS, prefetch } from './LocationsPage'

const mission = makeFace({ location_name: 'Mission St', city: 'San Francisco', value: 500, ooh: 75659 })
const broadway = makeFace({ location_name: 'Broadway', city: 'Oakland', value: 1250, ooh: 198899, face: 'West Face' })
const loop = makeFace({ location_name: 'The Loop', market: 'Chicago', city: 'Chicago', lat: 41.88, lng: -87.63, value: 800 })

function server(routes: Record<string, FakeRoute> = {}) {
  return mockFetch({
    'GET /api/markets/': { body: [BAY_AREA, CHICAGO] },
    'GET /api/map/config': { body: { tile_url: 'http://tiles.invalid/{z}/{x}/{y}.png', attribution: 'Test tiles' } },
    'GET /api/od/locations/': ({ query }) => ({
      body: [mission, broadway, loop].filter((f) => !query.get('market') || f.market === query.get('market')),
    }),
    'POST /api/available-spots/': ({ body }) => {
      const markets = (body as { markets: string[] }).markets
      return { body: [mission, broadway, loop].filter((f) => markets.includes(f.market)).map((f) => makeSpot(f, { available: f !== broadway })) }
    },
    ...routes,
  })
}

/** Faces as the server sends them in columns (modules/locations/facecolumns.go), keyed by their ids' first 4 bytes. */
function inColumns(faces: Location[]): LocationColumns {
  const index = (values: string[], value: string) => (values.includes(value) ? values.indexOf(value) : values.push(value) - 1)
  const c: LocationColumns = {
    format: 2, order: 'o', key_bytes: 4, keys: '', names: [], name: [], markets: [], market: [], cities: [], city: [], faces: [], face: [],
    snapshots: [], snapshot: [], lat: [], lng: [], value: [], ooh: [], frequency: [], duration: [], flags: [],
  }
  let name = 0
  let lat = 0
  let lng = 0
  let keys = ''
  for (const f of faces) {
    const n = index(c.names, f.location_name)
    c.name.push(n - name)
    name = n
    c.market.push(index(c.markets, f.market))
    c.city.push(index(c.cities, f.city))
    c.face.push(index(c.faces, f.face))
    c.snapshot.push(index(c.snapshots, f.new_location_snapshot))
    c.lat.push(Math.round(f.lat * 1e5) - lat)
    c.lng.push(Math.round(f.lng * 1e5) - lng)
    lat = Math.round(f.lat * 1e5)
    lng = Math.round(f.lng * 1e5)
    c.value.push(Math.round(f.value * 100))
    c.ooh.push(f.ooh)
    c.frequency.push(f.location.ad_rotation_frequency)
    c.duration.push(f.location.ad_spot_duration)
    c.flags.push(0)
    keys += f.id.slice(0, 8)
  }
  c.keys = btoa(keys.match(/../g)!.map((b) => String.fromCharCode(parseInt(b, 16))).join(''))
  return c
}

const renderPage = () => renderApp('/locations', { session: anonymousSession() })

// The first test also waits for the page's lazy bundle (leaflet included) to load.

describe('/locations (A §2)', () => {
  it('lists every face with the count, the price range and the availability of the week', async () => {
    const api = server()
    renderPage()
    expect(await screen.findByRole('heading', { level: 1, name: 'Every billboard face, on one map' }, { timeout: 5000 })).toBeInTheDocument()
    expect(await screen.findByTestId('face-count')).toHaveTextContent('3 faces')
    expect(screen.getByText('Weekly price $500 – $1,250')).toBeInTheDocument()
    expect(await screen.findByText('2 available for the chosen week')).toBeInTheDocument()
    const list = screen.getByRole('list', { name: 'Faces' })
    expect(within(list).getByRole('button', { name: /Broadway/ })).toHaveTextContent('Sold out')
    // The week asked is a Monday, YYYY-MM-DD, for every market on the map.
    const asked = api.called('POST', '/api/available-spots/')[0]!.body as { start_at: string; markets: string[] }
    expect(new Date(`${asked.start_at}T00:00:00`).getDay()).toBe(1)
    expect(asked.markets).toEqual(['Chicago', 'SF Bay Area'])
  })

  it('asks for the faces first, the map\'s settings and the markets in later tasks (issue 30)', async () => {
    const api = server()
    renderPage()
    expect(await screen.findByTestId('face-count', {}, { timeout: 5000 })).toHaveTextContent('3 faces')
    await waitFor(() => expect(api.called('GET', '/api/markets/')).toHaveLength(1))
    const order = api.calls.map((c) => c.path).filter((path) => ['/api/od/locations/', '/api/map/config', '/api/markets/'].includes(path))
    expect(order[0]).toBe('/api/od/locations/')
    expect([...order].sort()).toEqual(['/api/map/config', '/api/markets/', '/api/od/locations/'])
  })

  it('takes the faces and the map\'s settings asked for before it hydrated, without asking again (issue 30)', async () => {
    const api = server()
    FIRST_REQUESTS.forEach(sendEarly) // as main.tsx does when the page's HTML has not started them
    await waitFor(() => expect(api.called('GET', '/api/map/config')).toHaveLength(1))
    expect(api.called('GET', '/api/od/locations/')).toHaveLength(1)
    renderPage()
    expect(await screen.findByTestId('face-count', {}, { timeout: 5000 })).toHaveTextContent('3 faces')
    await waitFor(() => expect(api.called('GET', '/api/markets/')).toHaveLength(1))
    expect(api.called('GET', '/api/od/locations/')).toHaveLength(1)
    expect(api.called('GET', '/api/map/config')).toHaveLength(1)
  })

  it('decodes the faces its HTML asked for once, before it hydrates, and its query takes that very list (issue 30)', async () => {
    const withIds = [mission, broadway, loop].map((f, i) => ({ ...f, id: `${i + 1}0000000-0000-4000-8000-000000000000` }))
    server({ 'GET /api/od/locations/': { body: inColumns(withIds) } })
    const measure = vi.spyOn(performance, 'measure')
    const decodes = () => measure.mock.calls.filter(([name]) => name === 'map:faces-decoded').length
    FIRST_REQUESTS.forEach(sendEarly) // as the page's HTML does
    prefetch() // as main.tsx does before the hydration
    await waitFor(() => expect(decodes()).toBe(1))
    renderPage()
    expect(await screen.findByTestId('face-count', {}, { timeout: 5000 })).toHaveTextContent('3 faces')
    expect(decodes()).toBe(1)
    measure.mockRestore()
  })

  it('matches the week\'s spots to faces sent without their ids, by their keys, and never asks for the ids', async () => {
    // Two ids that share their first bytes up to the key's length would be refused by the server (the
    // key length is the fewest bytes no two faces share); these differ in their first 4.
    const withIds = [
      { ...mission, id: '6ef4bc0d-f051-5c9a-b6ff-6da8341baeec' },
      { ...broadway, id: '0a000000-0000-4000-8000-0000000000ff' },
      { ...loop, id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' },
    ]
    const api = server({
      'GET /api/od/locations/': ({ query }) => ({ body: query.get('format') === 'columns' ? inColumns(withIds) : withIds }),
      'POST /api/available-spots/': { body: withIds.map((f) => makeSpot(f, { available: f.location_name !== 'Broadway' })) },
    })
    renderPage()
    expect(await screen.findByTestId('face-count', {}, { timeout: 5000 })).toHaveTextContent('3 faces')
    expect(await screen.findByText('2 available for the chosen week')).toBeInTheDocument()
    const list = screen.getByRole('list', { name: 'Faces' })
    expect(within(list).getByRole('button', { name: /Broadway/ })).toHaveTextContent('Sold out')
    expect(within(list).getByRole('button', { name: /Mission St/ })).not.toHaveTextContent('Sold out')
    expect(api.called('GET', '/api/od/locations/').map((r) => r.query.get('format'))).not.toContain('ids')
  })

  it('filters by market and by city', async () => {
    const api = server()
    const user = userEvent.setup()
    renderPage()
    await screen.findByTestId('face-count')
    // The markets are asked for once the page is idle: the filter waits for them.
    await waitFor(() => expect(screen.getByLabelText('Market')).toBeEnabled())
    await user.selectOptions(screen.getByLabelText('Market'), 'SF Bay Area')
    await waitFor(() => expect(screen.getByTestId('face-count')).toHaveTextContent('2 faces'))
    expect(api.called('GET', '/api/od/locations/').at(-1)!.query.get('market')).toBe('SF Bay Area')
    await user.click(screen.getByText('All cities'))
    await user.click(screen.getByRole('checkbox', { name: 'Oakland' }))
    await waitFor(() => expect(screen.getByTestId('face-count')).toHaveTextContent('1 face'))
    expect(within(screen.getByRole('list', { name: 'Faces' })).getByRole('button', { name: /Broadway/ })).toBeInTheDocument()
    await waitFor(() => expect((api.called('POST', '/api/available-spots/').at(-1)!.body as { cities?: string }).cities).toBe('Oakland'))
  })

  it('dims the list of the market before while a new market\'s faces load, and none of its faces can be opened', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    server({
      'GET /api/od/locations/': async ({ query }) => {
        if (query.get('market') === 'Chicago') await held
        return { body: [mission, broadway, loop].filter((f) => !query.get('market') || f.market === query.get('market')) }
      },
    })
    const user = userEvent.setup()
    renderPage()
    await screen.findByTestId('face-count')
    await waitFor(() => expect(screen.getByLabelText('Market')).toBeEnabled())
    expect(screen.getByRole('button', { name: /Mission St/ })).toBeEnabled()

    await user.selectOptions(screen.getByLabelText('Market'), 'Chicago')
    // The faces listed are not the map's until Chicago's come: before, a click on one opened nothing.
    await waitFor(() => expect(screen.getByRole('button', { name: /Mission St/ })).toBeDisabled())
    expect(screen.getByTestId('face-count').closest('[aria-busy]')).toHaveAttribute('aria-busy', 'true')

    release()
    await waitFor(() => expect(screen.getByTestId('face-count')).toHaveTextContent('1 face'))
    expect(screen.getByRole('button', { name: /The Loop/ })).toBeEnabled()
    expect(screen.getByTestId('face-count').closest('[aria-busy]')).toBeNull()
  })

  it('searches a place, lists the faces within the radius and asks again for a new radius', async () => {
    const near = makeFace({ location_name: 'Near', distance: 1.2 })
    const nearer = makeFace({ location_name: 'Nearer', distance: 0.4 })
    const api = server({
      'GET /api/places/predictions': ({ query }) => ({ body: query.get('input') === 'San Fr' ? [{ id: 'p-sf', value: 'San Francisco, CA' }, { id: 'p-sfs', value: 'San Fernando, CA' }] : [] }),
      'GET /api/places/details': { body: { id: 'p-sf', name: 'San Francisco, CA', geometry: { location: { lat: 37.77, lng: -122.42 } } } },
      'GET /api/od/locations/': ({ query }) => ({
        body: query.get('place') ? (query.get('radius') === '5' ? [] : [near, nearer]) : [mission, broadway, loop],
      }),
    })
    const user = userEvent.setup()
    renderPage()
    await screen.findByTestId('face-count')
    await user.click(screen.getByRole('radio', { name: 'Place and radius' }))
    const input = screen.getByRole('combobox', { name: 'Place' })
    await user.type(input, 'San Fr')
    const listbox = await screen.findByRole('listbox', {}, { timeout: 2000 })
    // B §9: one prediction call after the typing stopped, not one per letter.
    expect(api.called('GET', '/api/places/predictions').map((c) => c.query.get('input'))).toEqual(['San Fr'])
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['San Francisco, CA', 'San Fernando, CA'])
    await user.keyboard('{ArrowDown}{Enter}')
    expect(await screen.findByText('No faces in this area — try a larger radius')).toBeInTheDocument()
    expect(api.called('GET', '/api/od/locations/').at(-1)!.query.toString()).toBe('place=p-sf&radius=5&format=columns')
    await user.selectOptions(screen.getByLabelText('Radius'), '10 miles')
    await waitFor(() => expect(screen.getByTestId('face-count')).toHaveTextContent('2 faces'))
    expect(api.called('GET', '/api/od/locations/').at(-1)!.query.toString()).toBe('place=p-sf&radius=10&format=columns')
    // Nearest first.
    const names = within(screen.getByRole('list', { name: 'Faces' })).getAllByRole('button').map((b) => b.textContent)
    expect(names[0]).toContain('Nearer')
    expect(names[0]).toContain('0.4 mi')
  })

  it("shows the server's message for a refused search", async () => {
    server({
      'GET /api/places/predictions': { body: [{ id: 'p-sf', value: 'San Francisco, CA' }] },
      'GET /api/places/details': { body: { id: 'p-sf', name: 'San Francisco, CA', geometry: { location: { lat: 37.77, lng: -122.42 } } } },
      'GET /api/od/locations/': ({ query }) =>
        query.get('place') ? { status: 400, body: { success: false, message: MsgRadiusInvalid, errors: { radius: MsgRadiusInvalid } } } : { body: [mission] },
    })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const user = userEvent.setup()
    renderPage()
    await screen.findByTestId('face-count')
    await user.click(screen.getByRole('radio', { name: 'Place and radius' }))
    await user.type(screen.getByRole('combobox', { name: 'Place' }), 'San')
    await user.click(await screen.findByRole('option', { name: 'San Francisco, CA' }, { timeout: 2000 }))
    expect(await screen.findByRole('alert')).toHaveTextContent(MsgRadiusInvalid)
    expect(screen.getAllByText(MsgRadiusInvalid)).toHaveLength(2)
  })

  it('says why a place cannot be used when its details fail', async () => {
    server({
      'GET /api/places/predictions': { body: [{ id: 'p-x', value: 'Nowhere, ZZ' }] },
      'GET /api/places/details': { status: 404, body: { success: false, message: 'Place not found.' } },
    })
    const user = userEvent.setup()
    renderPage()
    await user.click(await screen.findByRole('radio', { name: 'Place and radius' }))
    await user.type(screen.getByRole('combobox', { name: 'Place' }), 'Nowh')
    await user.click(await screen.findByRole('option', { name: 'Nowhere, ZZ' }, { timeout: 2000 }))
    expect(await screen.findByText('Place not found.')).toBeInTheDocument()
    expect(screen.getByRole('combobox', { name: 'Place' })).toHaveAttribute('aria-invalid', 'true')
  })

  it('logs a location load failure without a flash message (B §8)', async () => {
    server({ 'GET /api/od/locations/': { status: 500, body: { success: false, message: 'Internal error.' } } })
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    renderPage()
    expect(await screen.findByText('The faces could not be loaded. Please try again later.')).toBeInTheDocument()
    expect(log).toHaveBeenCalledWith('Location load failure', expect.objectContaining({ status: 500 }))
    expect(screen.queryByText('Internal error.')).not.toBeInTheDocument()
  })
})
