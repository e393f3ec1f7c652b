import Supercluster from 'supercluster'

// The clustering of the map's signs (docs/map.md "Why clustering"), shared by the Web Worker that
// runs it off the main thread (clusterWorker.ts) and by the map itself where there is no Worker.

// Signs are clustered up to this zoom; closer in, every sign shows its arrow markers.
export const CLUSTER_MAX_ZOOM = 13
const CLUSTER_RADIUS_PX = 60

/** The signs to cluster: sign i is at (lng[i], lat[i]) and has count[i] faces. */
export interface SignPoints {
  lng: Float64Array
  lat: Float64Array
  count: Uint32Array
}

/**
 * One marker of a view: a cluster (id its supercluster id, count its faces, expansionZoom where it
 * breaks apart) or a single sign (id its index in the signs).
 */
export interface ClusterItem {
  lng: number
  lat: number
  cluster: boolean
  id: number
  count: number
  expansionZoom: number
}

interface SignProps {
  sign: number
  count: number
}
interface ClusterProps {
  count: number
}

export type ClusterIndex = Supercluster<SignProps, ClusterProps>

export function buildIndex(points: SignPoints): ClusterIndex {
  const index = new Supercluster<SignProps, ClusterProps>({
    radius: CLUSTER_RADIUS_PX,
    // Supercluster measures the radius against 512-pixel tiles; Leaflet's are 256, so without
    // this the radius on screen was half of CLUSTER_RADIUS_PX and cluster markers (up to 52 px)
    // overlapped one another, too close to tap (Lighthouse: target-size).
    extent: 256,
    maxZoom: CLUSTER_MAX_ZOOM,
    map: (p) => ({ count: p.count }),
    reduce: (total, p) => {
      total.count += p.count
    },
  })
  const features = new Array<Supercluster.PointFeature<SignProps>>(points.lng.length)
  for (let i = 0; i < features.length; i++) {
    features[i] = { type: 'Feature', geometry: { type: 'Point', coordinates: [points.lng[i]!, points.lat[i]!] }, properties: { sign: i, count: points.count[i]! } }
  }
  return index.load(features)
}

/** The markers of the box [west, south, east, north] at zoom. */
export function queryIndex(index: ClusterIndex, bbox: [number, number, number, number], zoom: number): ClusterItem[] {
  return index.getClusters(bbox, zoom).map((item) => {
    const [lng, lat] = item.geometry.coordinates as [number, number]
    const p = item.properties
    return 'cluster' in p && p.cluster
      ? { lng, lat, cluster: true, id: p.cluster_id, count: p.count, expansionZoom: index.getClusterExpansionZoom(p.cluster_id) }
      : { lng, lat, cluster: false, id: (p as SignProps).sign, count: (p as SignProps).count, expansionZoom: zoom }
  })
}

/** What the map asks the worker: load the signs of a generation, or the markers of a view of it. */
export type ClusterRequest =
  | { kind: 'load'; generation: number; points: SignPoints }
  | { kind: 'query'; generation: number; seq: number; bbox: [number, number, number, number]; zoom: number }

/** The worker's answer to a query. */
export interface ClusterReply {
  generation: number
  seq: number
  zoom: number
  items: ClusterItem[]
}
