import { useMemo } from 'react'
import type { FaceGeometry } from '../../../platform/api-types/locations'
import CreativePreflight from '../../creatives/shared/CreativePreflight'
import { useFacesWithGeometryQuery } from '../../locations/shared/faceGeometryApi'

interface FaceRow {
  id: string
  market: string
  location_name: string
  face: string
  geometry?: FaceGeometry
}

/**
 * Issue 29 "where it shows": the creative's pre-flight on a campaign's faces and the creative on
 * a face's photo; in the campaign form before payment, and in the admin's review of a campaign.
 * Advice only: nothing here blocks a submit.
 */
export default function PreflightSection({
  creative,
  faces,
  title = 'Pre-flight: will your ad be read from the road?',
  emptyFaces = 'Choose faces on the map to check the creative on them; until then it is checked on a standard face.',
}: {
  creative: { id: string; name: string; alt?: string; awsUrl: string } | null | undefined
  faces: FaceRow[]
  title?: string
  emptyFaces?: string
}) {
  // The faces often come in columns, without their geometry: their markets are read in full once,
  // so the browser draws the preview on the face's photo. Until then (or for a face without a
  // photo) the server draws it.
  const markets = useMemo(() => [...new Set(faces.map((f) => f.market))].sort(), [faces])
  const full = useFacesWithGeometryQuery(markets, { skip: !creative || markets.length === 0 })
  const geometry = useMemo(() => new Map((full.data ?? []).map((f) => [f.id, f.geometry])), [full.data])
  const refs = faces.map((f) => ({
    id: f.id,
    name: `${f.location_name}, ${f.face}`,
    geometry: geometry.get(f.id) ?? f.geometry ?? null,
  }))
  return (
    <div data-field="preflight" data-testid="campaign-preflight">
      <CreativePreflight title={title} creative={creative ?? null} faces={refs} emptyFaces={emptyFaces} />
    </div>
  )
}
