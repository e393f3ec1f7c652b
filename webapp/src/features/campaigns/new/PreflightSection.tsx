import { useMemo } from 'react'
import type { Creative } from '../../../platform/api-types/creatives'
import type { Location } from '../../../platform/api-types/locations'
import CreativePreflight from '../../creatives/shared/CreativePreflight'
import { useFacesWithGeometryQuery } from '../../locations/shared/faceGeometryApi'

/**
 * Issue 29 "where it shows": before payment, the creative's pre-flight on the faces chosen and the
 * creative on a face's photo. Advice only: the form submits whatever the report says.
 */
export default function PreflightSection({ creative, faces }: { creative: Creative | null | undefined; faces: Location[] }) {
  // The form's faces come in columns, without their geometry: the chosen faces' markets are read
  // in full once, so the browser draws the preview on the face's photo. Until then (or for a face
  // without a photo) the server draws it.
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
      <CreativePreflight
        title="Pre-flight: will your ad be read from the road?"
        creative={creative ?? null}
        faces={refs}
        emptyFaces="Choose faces on the map to check the creative on them; until then it is checked on a standard face."
      />
    </div>
  )
}
