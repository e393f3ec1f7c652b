import { lazy, Suspense, useId, useState, type FormEvent } from 'react'
import Alert from '../../../platform/Alert'
import { ClassArterial, ClassFreeway, ClassStreet, MaxFaceFeet, MaxFacePixels, MsgCorners, MsgFaceFeet, MsgFacePixels } from '../../../platform/api-types/locations'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import Field from '../../../platform/inputs/Field'
import Spinner from '../../../platform/Spinner'
import { useMarketsQuery } from '../shared/api'
import FaceHoursFields from './FaceHoursFields'
import { CORNER_NAMES, clampPoint, defaultCorners, validCorners, type Point } from './cornerRules'
import { useFacesWithGeometryQuery, useUpdateFaceGeometryMutation, type FaceWithGeometry } from './faceAdminApi'
import FacePhotoUpload from './FacePhotoUpload'

// konva is loaded only once a face with a photo is opened.
const CornerEditor = lazy(() => import('./CornerEditor'))

/** The viewing distance classes of a face. */
const CLASSES = [
  [ClassFreeway, 'Freeway'],
  [ClassArterial, 'Arterial road'],
  [ClassStreet, 'Street'],
] as const

// The server's limits and messages; it refuses anything else too.
const MAX_FEET = MaxFaceFeet
const MAX_PIXELS = MaxFacePixels
const MSG_FEET = MsgFaceFeet
const MSG_PIXELS = MsgFacePixels
const MSG_CORNERS = MsgCorners

interface Draft {
  width_ft: string
  height_ft: string
  pixel_width: string
  pixel_height: string
  distance_class: string
  corners: Point[]
  /** Whether the photo's corners are set (an empty list is saved otherwise). */
  hasCorners: boolean
}

function draftOf(f: FaceWithGeometry): Draft {
  const g = f.geometry
  const has = !!g && g.corners?.length === 4
  return {
    width_ft: String(g?.width_ft ?? ''),
    height_ft: String(g?.height_ft ?? ''),
    pixel_width: String(g?.pixel_width ?? ''),
    pixel_height: String(g?.pixel_height ?? ''),
    distance_class: g?.distance_class || ClassArterial,
    corners: has ? g!.corners : g?.photo ? defaultCorners(g.photo_width, g.photo_height) : [],
    hasCorners: has,
  }
}

const inRange = (s: string, max: number) => {
  const n = Number(s)
  return s.trim() !== '' && Number.isFinite(n) && n >= 1 && n <= max
}

function FaceEditor({ face }: { face: FaceWithGeometry }) {
  const ids = useId()
  const g = face.geometry
  const [draft, setDraft] = useState<Draft>(() => draftOf(face))
  const [errors, setErrors] = useState<Partial<Record<'feet' | 'pixels' | 'corners', string>>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const [save, { isLoading }] = useUpdateFaceGeometryMutation()
  const { ref, focusInvalid } = useFocusFirstInvalid()
  const set = (patch: Partial<Draft>) => {
    setSaved(false)
    setErrors({})
    setDraft((d) => ({ ...d, ...patch }))
  }
  // A new photo (FacePhotoUpload) comes without corners: they start again on it.
  const [photo, setPhoto] = useState(g?.photo)
  if (g?.photo !== photo) {
    setPhoto(g?.photo)
    setDraft((d) => ({ ...d, corners: g?.photo ? defaultCorners(g.photo_width, g.photo_height) : [], hasCorners: false }))
  }
  const moveCorner = (i: number, p: Point) => set({ corners: draft.corners.map((c, j) => (j === i ? p : c)), hasCorners: true })

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const next = {
      feet: inRange(draft.width_ft, MAX_FEET) && inRange(draft.height_ft, MAX_FEET) ? undefined : MSG_FEET,
      pixels: inRange(draft.pixel_width, MAX_PIXELS) && inRange(draft.pixel_height, MAX_PIXELS) && Number.isInteger(Number(draft.pixel_width)) && Number.isInteger(Number(draft.pixel_height)) ? undefined : MSG_PIXELS,
      corners: draft.hasCorners && g && !validCorners(draft.corners, g.photo_width, g.photo_height) ? MSG_CORNERS : undefined,
    }
    setErrors(next)
    if (next.feet || next.pixels || next.corners) {
      focusInvalid()
      return
    }
    try {
      await save({
        id: face.id,
        body: {
          width_ft: Number(draft.width_ft),
          height_ft: Number(draft.height_ft),
          pixel_width: Number(draft.pixel_width),
          pixel_height: Number(draft.pixel_height),
          distance_class: draft.distance_class,
          corners: draft.hasCorners ? draft.corners : [],
        },
      }).unwrap()
      setSaved(true)
    } catch (error) {
      const fields = isApiError(error) ? error.errors : {}
      setErrors({ feet: fields.width_ft, pixels: fields.pixel_width, corners: fields.corners })
      setFailure(errorMessage(error))
    }
  }

  const numberField = (key: 'width_ft' | 'height_ft' | 'pixel_width' | 'pixel_height', label: string, error: string | undefined, step: string) => (
    <Field id={`${ids}-${key}`} label={label}>
      <input
        id={`${ids}-${key}`}
        type="number"
        inputMode="decimal"
        step={step}
        min={1}
        className="field-input"
        value={draft[key]}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${ids}-${key.endsWith('ft') ? 'feet' : 'pixels'}-error` : undefined}
        onChange={(e) => set({ [key]: e.target.value })}
      />
    </Field>
  )

  return (
    <form ref={ref} noValidate onSubmit={onSubmit} className="space-y-4" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="text-lg font-semibold text-slate-900">
        {face.location_name}, {face.face}
      </h2>
      {failure && <Alert>{failure}</Alert>}
      {saved && <Alert tone="success">The face is saved.</Alert>}
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-900">Physical size</legend>
        <div className="grid grid-cols-2 gap-3">
          {numberField('width_ft', 'Width (ft)', errors.feet, '0.5')}
          {numberField('height_ft', 'Height (ft)', errors.feet, '0.5')}
        </div>
        {errors.feet && (
          <p id={`${ids}-feet-error`} className="text-sm text-red-600">
            {errors.feet}
          </p>
        )}
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-900">Resolution</legend>
        <div className="grid grid-cols-2 gap-3">
          {numberField('pixel_width', 'Width (pixels)', errors.pixels, '1')}
          {numberField('pixel_height', 'Height (pixels)', errors.pixels, '1')}
        </div>
        {errors.pixels && (
          <p id={`${ids}-pixels-error`} className="text-sm text-red-600">
            {errors.pixels}
          </p>
        )}
      </fieldset>
      <Field id={`${ids}-class`} label="Viewing distance class" hint={g?.viewing_distance_ft ? `Now read from about ${g.viewing_distance_ft} ft at ${g.speed_mph} mph.` : undefined}>
        <select id={`${ids}-class`} className="field-input" value={draft.distance_class} onChange={(e) => set({ distance_class: e.target.value })}>
          {CLASSES.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </Field>

      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-slate-900">Screen corners on the photo</legend>
        <FacePhotoUpload faceId={face.id} hasPhoto={!!g?.photo} hasCorners={(g?.corners?.length ?? 0) === 4} />
        {g?.photo && (
          <>
            <p className="text-xs text-slate-600">Drag the four yellow corners onto the screen&apos;s corners, or type them below (photo pixels, clockwise from the top left).</p>
            <Suspense fallback={<Spinner label="Loading the corner editor" />}>
              <CornerEditor photo={g.photo} photoWidth={g.photo_width} photoHeight={g.photo_height} corners={draft.corners} onChange={moveCorner} />
            </Suspense>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {draft.corners.map((p, i) => (
                <fieldset key={CORNER_NAMES[i]} className="space-y-1">
                  <legend className="text-xs font-medium text-slate-700">
                    {i + 1}. {CORNER_NAMES[i]}
                  </legend>
                  <div className="flex gap-1">
                    {(['x', 'y'] as const).map((axis) => (
                      <label key={axis} className="flex-1 text-xs text-slate-600">
                        {axis}
                        <input
                          type="number"
                          className="field-input mt-0.5 px-2 py-1"
                          value={p[axis]}
                          aria-invalid={errors.corners ? true : undefined}
                          onChange={(e) => moveCorner(i, clampPoint({ ...p, [axis]: Number(e.target.value) }, g.photo_width, g.photo_height))}
                        />
                      </label>
                    ))}
                  </div>
                </fieldset>
              ))}
            </div>
            {errors.corners && <p className="text-sm text-red-600">{errors.corners}</p>}
          </>
        )}
      </fieldset>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Save face'}
        </button>
      </div>
    </form>
  )
}

/**
 * Issue 29 "Faces know their physical size": /admin/faces, where an admin sets a face's size in
 * feet, its resolution, its viewing distance class, and the screen's corners on its photo.
 */
export default function AdminFaces() {
  const ids = useId()
  const markets = useMarketsQuery()
  const [market, setMarket] = useState('')
  const [faceId, setFaceId] = useState<string | null>(null)
  const chosenMarket = market || markets.data?.[0]?.market || ''
  const faces = useFacesWithGeometryQuery([chosenMarket], { skip: !chosenMarket })
  // The chosen market's faces only (currentData): the list of the market before is not shown while
  // the new one loads, or a click on one of its faces opened no editor once the new list came.
  const list = faces.currentData
  const face = list?.find((f) => f.id === faceId) ?? null

  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Faces</h1>
        <p className="mt-1 text-slate-600">Each face&apos;s size, resolution and viewing distance, and its screen on the photo: the creative pre-flight and preview use them.</p>
      </div>
      {markets.isError && <Alert>{errorMessage(markets.error)}</Alert>}
      <div className="grid gap-5 lg:grid-cols-[20rem_1fr]">
        <section className="card min-w-0 space-y-3 p-4" aria-labelledby={`${ids}-list`}>
          <h2 id={`${ids}-list`} className="text-sm font-semibold text-slate-900">
            Faces of a market
          </h2>
          <Field id={`${ids}-market`} label="Market">
            <select
              id={`${ids}-market`}
              className="field-input"
              value={chosenMarket}
              onChange={(e) => {
                setMarket(e.target.value)
                setFaceId(null)
              }}
            >
              {(markets.data ?? []).map((m) => (
                <option key={m.id} value={m.market}>
                  {m.market}
                </option>
              ))}
            </select>
          </Field>
          {markets.isLoading || (faces.isFetching && !list) ? (
            <Spinner label="Loading the faces" />
          ) : faces.isError ? (
            <Alert>{errorMessage(faces.error)}</Alert>
          ) : !list?.length ? (
            <p className="text-sm text-slate-600">No faces in this market.</p>
          ) : (
            <ul className="max-h-[28rem] space-y-1 overflow-y-auto" aria-label="Faces">
              {list.map((f) => (
                <li key={f.id}>
                  <button
                    type="button"
                    aria-pressed={f.id === faceId}
                    className="w-full rounded-lg px-2 py-1.5 text-left text-sm hover:bg-slate-100 aria-pressed:bg-brand-50 aria-pressed:font-medium aria-pressed:text-brand-800"
                    onClick={() => setFaceId(f.id)}
                  >
                    <span className="block truncate">
                      {f.location_name}, {f.face}
                    </span>
                    <span className="block text-xs text-slate-600">
                      {f.geometry ? `${f.geometry.width_ft} x ${f.geometry.height_ft} ft, ${f.geometry.distance_class}${f.geometry.corners?.length === 4 ? ', screen marked' : f.geometry.photo ? ', screen not marked' : ', no photo'}` : 'No geometry yet'}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="card min-w-0 p-4 sm:p-6" aria-label="Face editor">
          {face ? (
            <div className="space-y-6">
              <FaceEditor key={face.id} face={face} />
              <FaceHoursFields key={`${face.id}-hours`} face={face} />
            </div>
          ) : (
            <p className="text-sm text-slate-600">Choose a face to edit its size and screen corners.</p>
          )}
        </section>
      </div>
    </div>
  )
}
