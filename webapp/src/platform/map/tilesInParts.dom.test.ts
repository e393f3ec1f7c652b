import { map as leafletMap, TileLayer, type Map as LeafletMap } from 'leaflet'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TileLayerInParts, TILES_PER_TASK } from './tilesInParts'

// jsdom lays nothing out; Leaflet sizes its map by the container's clientWidth and clientHeight.
function mapOfSize(width: number, height: number): LeafletMap {
  const element = document.createElement('div')
  Object.defineProperty(element, 'clientWidth', { value: width })
  Object.defineProperty(element, 'clientHeight', { value: height })
  document.body.appendChild(element)
  return leafletMap(element, { center: [39.8, -98.6], zoom: 5, fadeAnimation: false, zoomAnimation: false })
}

/** The tiles a layer has asked for, in the order it asked ("z/x/y"). */
function asked(layer: TileLayer): string[] {
  const urls: string[] = []
  layer.on('tileloadstart', (e) => urls.push((e as unknown as { tile: HTMLImageElement }).tile.src.replace(/^.*tiles\.invalid\//, '').replace(/\.png$/, '')))
  return urls
}

const URL_TEMPLATE = 'http://tiles.invalid/{z}/{x}/{y}.png'

describe('TileLayerInParts (issue 30)', () => {
  afterEach(() => {
    document.body.innerHTML = ''
    vi.useRealTimers()
  })

  it('asks for the tiles Leaflet asks for, in its order, a few a task', async () => {
    // Leaflet's own layer: every tile of the view in one call.
    const plain = new TileLayer(URL_TEMPLATE)
    const all = asked(plain)
    plain.addTo(mapOfSize(1024, 768))
    expect(all.length).toBeGreaterThan(3 * TILES_PER_TASK)

    vi.useFakeTimers()
    const inParts = new TileLayerInParts(URL_TEMPLATE)
    const parts = asked(inParts)
    inParts.addTo(mapOfSize(1024, 768))
    // The first part: the tiles nearest the centre.
    expect(parts).toEqual(all.slice(0, TILES_PER_TASK))
    await vi.advanceTimersToNextTimerAsync()
    expect(parts).toEqual(all.slice(0, 2 * TILES_PER_TASK))
    await vi.runAllTimersAsync()
    expect(parts).toEqual(all)
    // Both maps' tiles: every one of the view, once.
    expect(document.querySelectorAll('img.leaflet-tile')).toHaveLength(2 * all.length)
  })

  it('asks for no more once it is off the map', async () => {
    vi.useFakeTimers()
    const layer = new TileLayerInParts(URL_TEMPLATE)
    const parts = asked(layer)
    const map = mapOfSize(1024, 768)
    layer.addTo(map)
    expect(parts).toHaveLength(TILES_PER_TASK)
    layer.remove()
    await vi.runAllTimersAsync()
    expect(parts).toHaveLength(TILES_PER_TASK)
    expect(map.getContainer().querySelectorAll('img.leaflet-tile')).toHaveLength(0)
  })

  it('tells of a tile that fails, as Leaflet\'s layer does', async () => {
    vi.useFakeTimers()
    const layer = new TileLayerInParts(URL_TEMPLATE)
    const errors: unknown[] = []
    layer.on('tileerror', (e) => errors.push(e))
    layer.addTo(mapOfSize(512, 512))
    await vi.runAllTimersAsync()
    const first = document.querySelector<HTMLImageElement>('img.leaflet-tile')!
    first.dispatchEvent(new Event('error'))
    expect(errors).toHaveLength(1)
  })
})
