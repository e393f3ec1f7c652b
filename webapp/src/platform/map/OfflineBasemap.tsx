import type { Feature, FeatureCollection, Point } from 'geojson'
import { divIcon } from 'leaflet'
import { useEffect, useMemo, useState } from 'react'
import { GeoJSON, Marker, Pane, useMap, useMapEvents } from 'react-leaflet'

interface CityProps {
  name: string
  state: string
  population: number
}

interface Basemap {
  states: FeatureCollection
  cities: FeatureCollection<Point, CityProps>
}

/** Where the basemap is drawn: under the tile pane (200), so any tile that loads covers it. */
export const BASEMAP_PANE = 'marquee-basemap'
const LABEL_PANE = 'marquee-basemap-labels'
const ATTRIBUTION = 'Offline basemap: US Census Bureau (us-atlas), GeoNames'
const STATE_STYLE = { color: '#94a3b8', weight: 1, fillColor: '#f8fafc', fillOpacity: 1 }

/** How many city names to show at a zoom: the largest first, more as the map zooms in. */
export function labelledCities(zoom: number): number {
  if (zoom <= 3) return 12
  if (zoom <= 4) return 30
  if (zoom <= 5) return 60
  return Infinity
}

/** How many parts the states are drawn in, a task each (see statesInParts). */
export const STATE_PARTS = 4

/** The number of positions of a feature's geometry (its rings' points). */
function positions(feature: Feature): number {
  const count = (c: unknown): number => (Array.isArray(c) ? (typeof c[0] === 'number' ? 1 : c.reduce((n: number, x: unknown) => n + count(x), 0)) : 0)
  return 'coordinates' in feature.geometry ? count(feature.geometry.coordinates) : 0
}

/**
 * The states in `parts` collections of about as many points each, in their order. Leaflet draws
 * each as a layer in a task of its own: drawn at once, the 56 states (3,594 points projected,
 * clipped and written as SVG paths) were one task of 27 to 37 ms of CPU on the project's hosts,
 * 110 to 150 ms on Lighthouse's phone (issue 30, /locations offline).
 */
export function statesInParts(states: FeatureCollection, parts: number): FeatureCollection[] {
  const total = states.features.reduce((n, f) => n + positions(f), 0)
  const out: FeatureCollection[] = []
  let part: Feature[] = []
  let sum = 0
  for (const feature of states.features) {
    part.push(feature)
    sum += positions(feature)
    if (sum >= (total * (out.length + 1)) / parts && out.length < parts - 1) {
      out.push({ type: 'FeatureCollection', features: part })
      part = []
    }
  }
  if (part.length) out.push({ type: 'FeatureCollection', features: part })
  return out
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`)

const cityIcon = (name: string) =>
  divIcon({ className: 'basemap-city', html: `<span class="basemap-city-dot"></span><span class="basemap-city-name">${escapeHtml(name)}</span>`, iconSize: undefined, iconAnchor: [3, 3] })

/**
 * The map's offline basemap (DESIGN §1.8): when the tiles cannot load, the US
 * states and the largest cities are drawn from data shipped with the app, so the faces still sit
 * somewhere a person recognises. The data (us-basemap.json, see basemap/README.md) is its own chunk,
 * fetched only when this is drawn.
 */
export default function OfflineBasemap() {
  const map = useMap()
  const [data, setData] = useState<Basemap | null>(null)
  const [zoom, setZoom] = useState(() => map.getZoom())
  useMapEvents({ zoomend: () => setZoom(map.getZoom()) })

  useEffect(() => {
    let alive = true
    void import('./basemap/us-basemap.json').then((m) => alive && setData(m.default as unknown as Basemap))
    return () => {
      alive = false
    }
  }, [])
  const parts = useMemo(() => (data ? statesInParts(data.states, STATE_PARTS) : []), [data])
  // One more part each task; the city names with the last.
  const [drawn, setDrawn] = useState(0)
  const complete = data !== null && drawn >= parts.length
  useEffect(() => {
    if (drawn >= parts.length) return
    const timer = window.setTimeout(() => setDrawn(drawn + 1), 0)
    return () => window.clearTimeout(timer)
  }, [drawn, parts])
  useEffect(() => {
    map.getContainer().dataset.basemap = complete ? 'drawn' : 'loading'
  }, [map, complete])
  // Credited once by the map, not by the states' layer: a GeoJSON layer hands its options to each
  // polygon it makes, and each polygon added with an attribution rewrites the control's HTML, 56
  // times for the states (25 ms of the 45 ms task that drew them, issue 30).
  useEffect(() => {
    const control = data ? map.attributionControl : undefined
    control?.addAttribution(ATTRIBUTION)
    return () => void control?.removeAttribution(ATTRIBUTION)
  }, [map, data])

  const cities = useMemo(() => (complete ? data.cities.features.slice(0, labelledCities(zoom)) : []), [complete, data, zoom])
  if (!data) return null
  return (
    <>
      <Pane name={BASEMAP_PANE} style={{ zIndex: 150 }}>
        {parts.slice(0, drawn).map((part, i) => (
          <GeoJSON key={i} data={part} interactive={false} style={STATE_STYLE} />
        ))}
      </Pane>
      <Pane name={LABEL_PANE} style={{ zIndex: 160, pointerEvents: 'none' }}>
        {cities.map((c) => {
          const [lng, lat] = c.geometry.coordinates as [number, number]
          return <Marker key={`${c.properties.name}-${c.properties.state}`} position={[lat, lng]} icon={cityIcon(c.properties.name)} interactive={false} keyboard={false} />
        })}
      </Pane>
    </>
  )
}
