import { memo, useMemo, useState } from 'react'
import type { AvailableSpot, Location } from '../../../platform/api-types/locations'
import { formatCount, formatDollars } from '../../../platform/money'
import { faceDescription } from '../../../platform/map/viewRules'
import { priceRange, weeklyTerms } from '../format'

// A long inventory is listed a page at a time; the map shows all of it.
export const LIST_PAGE = 50

// A row out of the list's view is not laid out until it comes into it (below); its height until then.
const ROW = '[content-visibility:auto] [contain-intrinsic-size:auto_4.25rem]'

export interface FaceListProps {
  faces: readonly Location[]
  spots: ReadonlyMap<string, AvailableSpot>
  selectedId: string | null
  onShow: (id: string) => void
  /** What to say when there are no faces. */
  emptyText: string
  /** The faces are those of the filter before, while the new filter's faces load: dimmed, and no face
   *  can be opened (it is not on the map). */
  stale?: boolean
}

/** The summary and list beside the map: how many faces, their weekly price range, and each face.
 *  Rendered again only when its props change, not on each of the page's renders (issue 30). */
export default memo(FaceList)

function FaceList({ faces, spots, selectedId, onShow, emptyText, stale = false }: FaceListProps) {
  const [shown, setShown] = useState(LIST_PAGE)
  // Over every face (3,250 on /locations), so once per faces and spots, not on each of the page's renders.
  const { range, available } = useMemo(
    () => ({
      range: priceRange(faces.map((face) => weeklyTerms(face, spots.get(face.id)).price)),
      available: spots.size > 0 ? faces.filter((face) => spots.get(face.id)?.available).length : null,
    }),
    [faces, spots],
  )

  if (faces.length === 0) {
    return (
      <p role="status" className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
        {emptyText}
      </p>
    )
  }
  return (
    <div className={stale ? 'space-y-3 opacity-60 transition-opacity' : 'space-y-3 transition-opacity'} aria-busy={stale || undefined}>
      <div role="status" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <p className="text-lg font-semibold text-slate-900" data-testid="face-count">
          {formatCount(faces.length)} {faces.length === 1 ? 'face' : 'faces'}
        </p>
        <p className="text-sm text-slate-600">Weekly price {range}</p>
        {available !== null && (
          <p className="text-sm text-slate-600">
            {formatCount(available)} available for the chosen week
          </p>
        )}
      </div>
      {/* The faces scrolled out of the list's view are not laid out or painted until they come
          into it (content-visibility), only the few in view: laying out all fifty was the
          longest layout of /locations as its faces arrived (issue 30, Total Blocking Time). They
          stay in the page for find-in-page, the keyboard and screen readers. */}
      <ul aria-label="Faces" className="divide-y divide-slate-100 rounded-xl bg-white shadow-sm ring-1 ring-slate-200 max-h-[26rem] overflow-y-auto lg:max-h-[34rem]">
        {faces.slice(0, shown).map((face) => {
          const spot = spots.get(face.id)
          const { price } = weeklyTerms(face, spot)
          return (
            <li key={face.id} className={face.id === selectedId ? `${ROW} bg-brand-50` : ROW}>
              <button
                type="button"
                className="flex w-full items-start justify-between gap-3 px-4 py-3 text-left enabled:hover:bg-slate-50 focus-visible:bg-slate-50 disabled:cursor-progress"
                aria-current={face.id === selectedId ? 'true' : undefined}
                disabled={stale}
                onClick={() => onShow(face.id)}
              >
                <span title={faceDescription(face)}>
                  <span className="block font-medium text-slate-900">{face.location_name}</span>
                  <span className="block text-sm text-slate-600">
                    {face.face} · {face.city}
                    {face.distance !== undefined && ` · ${face.distance.toFixed(1)} mi`}
                  </span>
                </span>
                <span className="text-right text-sm">
                  <span className="block font-semibold text-slate-900">{formatDollars(price)}</span>
                  {spot && !spot.available && <span className="block text-red-700">Sold out</span>}
                </span>
              </button>
            </li>
          )
        })}
      </ul>
      {faces.length > shown && (
        <button type="button" className="btn-secondary w-full" disabled={stale} onClick={() => setShown((n) => n + LIST_PAGE)}>
          Show {Math.min(LIST_PAGE, faces.length - shown)} more ({formatCount(faces.length - shown)} not listed yet)
        </button>
      )}
    </div>
  )
}
