import { useId, useState } from 'react'
import { errorMessage } from '../../../platform/http'
import InSituPreview, { type PreviewFace } from './InSituPreview'
import type { Corners } from './perspective'
import { REFERENCE_FACE } from './preflight'
import { previewUrl, useCreativePreflightQuery } from './preflightApi'
import PreflightPanel from './PreflightPanel'

/** A face's geometry as the locations calls give it (issue 29); absent in older answers. */
export interface FaceGeometryLike {
  width_ft: number
  height_ft: number
  viewing_distance_ft: number
  photo?: string
  photo_width?: number
  photo_height?: number
  /** The screen's corners on the photo, in its pixels, clockwise from the top left. */
  corners?: { x: number; y: number }[] | null
}

export interface PreflightFaceRef {
  id: string
  name: string
  geometry?: FaceGeometryLike | null
}

/** The preview's face: the photo and its corners in shares of the photo, when it has both. */
export function previewFace(face: PreflightFaceRef): PreviewFace {
  const g = face.geometry
  const ref = { width_ft: REFERENCE_FACE.width_ft, height_ft: REFERENCE_FACE.height_ft, viewing_distance_ft: REFERENCE_FACE.viewing_distance_ft }
  if (!g) return { name: face.name, ...ref }
  const corners =
    g.photo && g.corners?.length === 4 && g.photo_width && g.photo_height
      ? (g.corners.map((p) => ({ x: p.x / g.photo_width!, y: p.y / g.photo_height! })) as Corners)
      : null
  return {
    name: face.name,
    photoUrl: g.photo || null,
    corners,
    width_ft: g.width_ft || ref.width_ft,
    height_ft: g.height_ft || ref.height_ft,
    viewing_distance_ft: g.viewing_distance_ft || ref.viewing_distance_ft,
  }
}

/**
 * A saved creative's pre-flight on the chosen faces (issue 29: the campaign form before payment,
 * the admin's review): the overall score and checks, each face's score, and the creative on a
 * face's photo. Warnings never block anything.
 */
export default function CreativePreflight({
  creative,
  faces,
  title = 'Pre-flight',
  emptyFaces = 'No faces chosen yet: the creative is checked on a standard face.',
}: {
  creative: { id: string; name: string; alt?: string; awsUrl: string } | null
  faces: PreflightFaceRef[]
  title?: string
  emptyFaces?: string
}) {
  const ids = useId()
  const faceIds = faces.map((f) => f.id)
  const query = useCreativePreflightQuery({ creative_id: creative?.id ?? '', face_ids: faceIds }, { skip: !creative })
  const [chosen, setChosen] = useState<string | null>(null)
  const shown = faces.find((f) => f.id === chosen) ?? faces[0] ?? null
  const names = new Map(faces.map((f) => [f.id, f.name]))

  if (!creative) {
    return <PreflightPanel title={title} empty="Choose a creative to check how it reads on your faces." />
  }
  const report = query.data
  const loading = query.isFetching && !report
  return (
    <PreflightPanel
      title={title}
      report={report}
      loading={loading}
      error={query.isError ? errorMessage(query.error) : null}
      after={
        shown && (
          <div className="space-y-2">
            <h3 className="text-sm font-semibold text-slate-900">On the face</h3>
            {faces.length > 1 && (
              <label className="block text-sm text-slate-700" htmlFor={`${ids}-face`}>
                Face
                <select id={`${ids}-face`} className="field-input mt-1" value={shown.id} onChange={(e) => setChosen(e.target.value)}>
                  {faces.map((f) => (
                    <option key={f.id} value={f.id}>
                      {f.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <InSituPreview
              key={shown.id}
              // Without the creative's image the browser cannot draw it: the server does.
              face={creative.awsUrl ? previewFace(shown) : { ...previewFace(shown), photoUrl: null }}
              creativeUrl={creative.awsUrl}
              creativeAlt={creative.alt || creative.name}
              serverPreview={(light, view) => previewUrl(creative.id, shown.id, light, view)}
            />
          </div>
        )
      }
    >
      {faces.length === 0 && <p className="text-xs text-slate-600">{emptyFaces}</p>}
      {report?.faces && faces.length > 1 && (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-slate-800">Score on each face ({report.faces.length})</summary>
          <ul className="mt-2 space-y-1" aria-label="Score on each face">
            {report.faces.map((f) => (
              <li key={f.face_id} className="flex justify-between gap-2 text-slate-700">
                <span className="truncate">{names.get(f.face_id) ?? f.face_id}</span>
                <span className="shrink-0 font-medium">{f.score}/100</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </PreflightPanel>
  )
}
