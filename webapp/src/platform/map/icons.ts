import { divIcon, type DivIcon } from 'leaflet'
import { faceBearing } from './viewRules'

// Markers are divIcons (HTML and inline SVG): Leaflet's default image icon 404s under Vite
// (STACK.md), and a divIcon is cheap to create and style.

export type FaceMarkerState = 'normal' | 'checked' | 'disabled' | 'selected'

/**
 * A colour a page gives a face for its own reason (the Screens page: a screen online, offline,
 * never seen or revoked). The state's outline (selected) still shows.
 */
export type FaceMarkerTone = 'good' | 'bad' | 'muted' | 'off'

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const arrowCache = new Map<string, DivIcon>()

/**
 * An arrow that points the way the face looks (A §9: double-faced signs show two arrow markers);
 * a face with no direction is a dot. Icons are shared per bearing and state.
 */
export function faceIcon(face: string, state: FaceMarkerState, tone?: FaceMarkerTone): DivIcon {
  const bearing = faceBearing(face)
  const key = `${bearing ?? 'dot'}:${state}:${tone ?? ''}`
  let icon = arrowCache.get(key)
  if (!icon) {
    const shape =
      bearing === null
        ? '<circle cx="12" cy="12" r="6" />'
        : `<path transform="rotate(${bearing} 12 12)" d="M12 2 L20 20 L12 15.5 L4 20 Z" />`
    icon = divIcon({
      className: `map-face map-face--${state}${tone ? ` map-face--tone-${tone}` : ''}`,
      html: `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">${shape}</svg>`,
      iconSize: [24, 24],
      iconAnchor: [12, 12],
      popupAnchor: [0, -12],
    })
    arrowCache.set(key, icon)
  }
  return icon
}

const clusterCache = new Map<string, DivIcon>()

/**
 * A cluster bubble whose size grows with the number of faces it holds. Icons are shared per label:
 * a new icon object makes react-leaflet replace the marker's element, which every render of the
 * map's parent did for every cluster on screen (a tick in the campaign form, the week's
 * spots arriving on /locations).
 */
export function clusterIcon(count: number): DivIcon {
  const size = count < 10 ? 32 : count < 100 ? 38 : count < 1000 ? 44 : 52
  const label = count >= 10000 ? `${Math.round(count / 1000)}k` : String(count)
  let icon = clusterCache.get(label)
  if (!icon) {
    if (clusterCache.size >= 5000) clusterCache.clear()
    icon = divIcon({
      className: 'map-cluster',
      html: `<span>${escapeHtml(label)}</span>`,
      iconSize: [size, size],
      iconAnchor: [size / 2, size / 2],
    })
    clusterCache.set(label, icon)
  }
  return icon
}
