import type { FeatureCollection, Point } from 'geojson'
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

/** How many city names to show at a zoom: the largest first, more as the map zooms in. */
export function labelledCities(zoom: number): number {
  if (zoom <= 3) return 12
  if (zoom <= 4) return 30
  if (zoom <= 5) return 60
  return Infinity
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
  useEffect(() => {
    map.getContainer().dataset.basemap = data ? 'drawn' : 'loading'
  }, [map, data])
  // Credited once by the map, not by the states' layer: a GeoJSON layer hands its options to each
  // polygon it makes, and each polygon added with an attribution rewrites the control's HTML, 56
  // times for the states (25 ms of the 45 ms task that drew them, issue 30).
  useEffect(() => {
    const control = data ? map.attributionControl : undefined
    control?.addAttribution(ATTRIBUTION)
    return () => void control?.removeAttribution(ATTRIBUTION)
  }, [map, data])

  const cities = useMemo(() => data?.cities.features.slice(0, labelledCities(zoom)) ?? [], [data, zoom])
  if (!data) return null
  return (
    <>
      <Pane name={BASEMAP_PANE} style={{ zIndex: 150 }}>
        <GeoJSON
          data={data.states}
          interactive={false}
          style={{ color: '#94a3b8', weight: 1, fillColor: '#f8fafc', fillOpacity: 1 }}
        />
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
