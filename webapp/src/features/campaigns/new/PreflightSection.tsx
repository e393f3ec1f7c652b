import type { Creative } from '../../../platform/api-types/creatives'
import type { Location } from '../../../platform/api-types/locations'
import CreativePreflight from '../../creatives/shared/CreativePreflight'

/**
 * Issue 29 "where it shows": before payment, the creative's pre-flight on the faces chosen and the
 * creative on a face's photo. Advice only: the form submits whatever the report says.
 */
export default function PreflightSection({ creative, faces }: { creative: Creative | null | undefined; faces: Location[] }) {
  const refs = faces.map((f) => ({
    id: f.id,
    name: `${f.location_name}, ${f.face}`,
    // The form's faces come in columns, without a photo: the server draws their preview.
    geometry: f.geometry ?? null,
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
