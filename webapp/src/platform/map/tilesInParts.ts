import { TileLayer, type Coords, type LatLng, type Map as LeafletMap } from 'leaflet'

/** How many new tiles the layer adds in one task; the rest follow in the tasks after. */
export const TILES_PER_TASK = 4

/** The parts of Leaflet's GridLayer this layer builds on (Leaflet 1.9; not in its type declarations). */
interface GridLayerInternals {
  _update(center?: LatLng): void
  _addTile(coords: Coords, container: DocumentFragment | HTMLElement): void
}

const grid = TileLayer.prototype as unknown as GridLayerInternals

/**
 * A tile layer that adds the tiles a view needs a few at a time, a task each (issue 30, Total
 * Blocking Time of /locations). Leaflet's GridLayer creates, places and requests every missing tile
 * in one call of its _update: on a phone, whose screen has more than one device pixel a CSS pixel,
 * the map asks for tiles of the next zoom at half their size (detectRetina, for sharp tiles), 16 to
 * 20 of them, one task of about 15 ms of CPU at the project's hosts' speed, and of 62 to 89 ms of wall
 * time in Lighthouse's own trace: the longest task of the page. This layer keeps Leaflet's order (the tiles
 * nearest the view's centre first) and adds at most TILES_PER_TASK of them in each call; the rest
 * come from the same update, called again from a timer, until none is missing.
 */
export class TileLayerInParts extends TileLayer {
  /** How many more tiles the running update may add. */
  private allowance = Infinity
  /** The centre of the last update that was asked for, which the next part goes on with. */
  private partCenter: LatLng | undefined
  private nextPart = 0

  _update(center?: LatLng): void {
    this.partCenter = center
    this.allowance = TILES_PER_TASK
    try {
      grid._update.call(this, center)
    } finally {
      this.allowance = Infinity
    }
  }

  _addTile(coords: Coords, container: DocumentFragment | HTMLElement): void {
    if (this.allowance <= 0) {
      this.addNextPart()
      return
    }
    this.allowance -= 1
    grid._addTile.call(this, coords, container)
  }

  onRemove(map: LeafletMap): this {
    window.clearTimeout(this.nextPart)
    this.nextPart = 0
    return super.onRemove(map)
  }

  /** Goes on with the last update in the next task: the tiles it left are still missing then. */
  private addNextPart() {
    if (this.nextPart) return
    this.nextPart = window.setTimeout(() => {
      this.nextPart = 0
      // Off the map, the timer was cleared (onRemove), and Leaflet's _update checks its map itself.
      this._update(this.partCenter)
    }, 0)
  }
}
