/// <reference lib="webworker" />
import { buildIndex, queryIndex, type ClusterIndex, type ClusterReply, type ClusterRequest } from './clusterIndex'

// The map's clustering off the main thread (issue 30): building the index of thousands of signs was
// a long task of /locations' first render. Requests are answered in order, so a query always
// follows the load of its generation.
let index: ClusterIndex | null = null
let generation = -1

self.onmessage = (event: MessageEvent<ClusterRequest>) => {
  const request = event.data
  if (request.kind === 'load') {
    index = buildIndex(request.points)
    generation = request.generation
    return
  }
  // A query for signs that were replaced since: the map ignores its answer anyway.
  if (!index || request.generation !== generation) return
  const reply: ClusterReply = { generation, seq: request.seq, zoom: request.zoom, items: queryIndex(index, request.bbox, request.zoom) }
  self.postMessage(reply)
}
