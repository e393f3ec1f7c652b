import { render, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { clusterIcon } from './icons'
import FaceMap, { type MapFace } from './Map'

// What jsdom can check of the map (it has no layout, so markers are checked in Chromium by the
// locations journeys): the default view per mode and the faces it draws.
const faces: MapFace[] = [
  { id: 'a', lat: 37.77, lng: -122.42, face: 'North Face', location_name: 'Sign A' },
  { id: 'b', lat: 37.77, lng: -122.42, face: 'South Face', location_name: 'Sign A' },
  { id: 'c', lat: 37.8, lng: -122.27, face: 'East Face', location_name: 'Sign C' },
]

function renderMap(props: Partial<Parameters<typeof FaceMap<MapFace>>[0]> = {}) {
  const view = render(<FaceMap faces={faces} mode="browse" label="Test map" tileUrl="http://tiles.invalid/{z}/{x}/{y}.png" attribution="Test" {...props} />)
  const container = () => view.container.querySelector<HTMLElement>('.leaflet-container')!
  return { ...view, container }
}

describe('FaceMap', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it.each([
    ['browse', '3'],
    ['detail', '3'],
    ['creation', '4'],
  ] as const)('opens %s on the USA at zoom %s', async (mode, zoom) => {
    const { container, getByRole } = renderMap({ mode })
    expect(getByRole('region', { name: 'Test map' })).toBeInTheDocument()
    await waitFor(() => expect(container().dataset.zoom).toBe(zoom))
    expect(container().dataset.faces).toBe('3')
  })

  it('draws only the checked faces in show-only-checked mode, and every face when none is checked', async () => {
    const { container, rerender } = renderMap({ checked: new Set(['c']), showOnlyChecked: true })
    await waitFor(() => expect(container().dataset.faces).toBe('1'))
    rerender(<FaceMap faces={faces} mode="creation" label="Test map" tileUrl="http://tiles.invalid/{z}/{x}/{y}.png" attribution="Test" checked={new Set()} showOnlyChecked />)
    await waitFor(() => expect(container().dataset.faces).toBe('3'))
  })

  it('moves to a view it is given', async () => {
    const { container } = renderMap({ view: { kind: 'centre', center: { lat: 37.77, lng: -122.42 }, zoom: 15 } })
    await waitFor(() => expect(container().dataset.zoom).toBe('15'))
  })

  it('without a tile URL (the tiles cannot be reached) draws no tile layer and says so once (issue 30)', async () => {
    const { container, getByRole } = renderMap({ tileUrl: '' })
    const region = getByRole('region', { name: 'Test map' })
    expect(region.dataset.tiles).toBe('offline')
    expect(getByRole('status')).toHaveTextContent('The map tiles can’t be reached: showing the built-in map.')
    await waitFor(() => expect(container().dataset.basemap).toBeDefined())
    expect(container().querySelectorAll('.leaflet-tile-pane img, .leaflet-tile-container')).toHaveLength(0)
  })

  it('mounts and draws its faces before the page knows its tiles, and adds the base layer once it does (issue 30)', async () => {
    const { container, getByRole, queryByRole, rerender } = renderMap({ tileUrl: undefined })
    const region = getByRole('region', { name: 'Test map' })
    expect(region.dataset.tiles).toBe('pending')
    // Not offline: no message, no built-in basemap, no tile asked for.
    expect(queryByRole('status')).toBeNull()
    await waitFor(() => expect(container().dataset.faces).toBe('3'))
    expect(container().dataset.basemap).toBeUndefined()
    expect(container().querySelectorAll('.leaflet-tile-container')).toHaveLength(0)
    rerender(<FaceMap faces={faces} mode="browse" label="Test map" tileUrl="http://tiles.invalid/{z}/{x}/{y}.png" attribution="Test" />)
    expect(region.dataset.tiles).toBe('online')
    await waitFor(() => expect(container().querySelectorAll('.leaflet-tile-container').length).toBeGreaterThan(0))
    expect(queryByRole('status')).toBeNull()
  })

  it('draws the built-in map and says so once, when a tile fails', async () => {
    const { container, getByRole } = renderMap()
    const region = getByRole('region', { name: 'Test map' })
    await waitFor(() => expect(container().querySelector('img.leaflet-tile')).not.toBeNull())
    container().querySelector('img.leaflet-tile')!.dispatchEvent(new Event('error'))
    await waitFor(() => expect(region.dataset.tiles).toBe('offline'))
    expect(getByRole('status')).toHaveTextContent('The map tiles can’t be reached: showing the built-in map.')
    await waitFor(() => expect(container().dataset.basemap).toBeDefined())
    expect(container().querySelectorAll('.leaflet-tile-pane img')).toHaveLength(0)
  })

  it('says nothing while the tiles can be reached', () => {
    const { getByRole, queryByRole } = renderMap()
    expect(getByRole('region', { name: 'Test map' }).dataset.tiles).toBe('online')
    expect(queryByRole('status')).toBeNull()
  })

  it('gives Leaflet the size the region was laid out at, instead of measuring its new container (issue 30)', async () => {
    // jsdom lays nothing out: every element measures 0 × 0, so a map that measured its container
    // would see no faces in its bounds. A ResizeObserver reports the region at 400 × 300.
    const observed: Element[] = []
    vi.stubGlobal(
      'ResizeObserver',
      class {
        callback: ResizeObserverCallback
        constructor(callback: ResizeObserverCallback) {
          this.callback = callback
        }
        observe(element: Element) {
          observed.push(element)
          this.callback([{ target: element, contentRect: { width: 400, height: 300 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver)
        }
        disconnect() {}
      },
    )
    const { container, getByRole } = renderMap()
    expect(observed).toEqual([getByRole('region', { name: 'Test map' })])
    await waitFor(() => expect(container().dataset.faces).toBe('3'))
    expect(Number(container().dataset.markers)).toBeGreaterThan(0)
  })

  it('without a ResizeObserver, Leaflet measures the container (0 × 0 in jsdom: nothing in view)', async () => {
    vi.stubGlobal('ResizeObserver', undefined)
    const { container } = renderMap()
    await waitFor(() => expect(container().dataset.zoom).toBe('3'))
    expect(container().dataset.markers).toBe('0')
  })

  it('shares a cluster icon per count, so a render does not replace the markers', () => {
    expect(clusterIcon(42)).toBe(clusterIcon(42))
    expect(clusterIcon(42)).not.toBe(clusterIcon(43))
  })
})
