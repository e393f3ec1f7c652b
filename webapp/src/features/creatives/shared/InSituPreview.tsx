import { useEffect, useId, useState } from 'react'
import { apparentShare, matrix3d, scaleCorners, type Corners } from './perspective'
import { BusyMark } from '../../../platform/Spinner'

export type Light = 'day' | 'night'
export type View = 'photo' | 'driveby'

/** What the preview needs of a face: its photo and the screen's corners on it, and its geometry. */
export interface PreviewFace {
  name: string
  /** The face's photo; absent when no photo was taken. */
  photoUrl?: string | null
  /** The screen's corners on the photo, in shares of its width and height (0..1). */
  corners?: Corners | null
  width_ft: number
  height_ft: number
  viewing_distance_ft: number
}

/** A busy mark that is not a live region: the preview loads inside forms with their own status. */
function Busy({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-2 rounded bg-white/90 px-2 py-1 text-xs text-slate-700">
      <BusyMark />
      {label}
    </span>
  )
}

function Choice<T extends string>({ legend, value, options, onChange }: { legend: string; value: T; options: [T, string][]; onChange: (v: T) => void }) {
  const name = useId()
  return (
    <fieldset className="flex flex-wrap items-center gap-1">
      <legend className="sr-only">{legend}</legend>
      <span aria-hidden="true" className="mr-1 text-xs font-medium text-slate-700">
        {legend}
      </span>
      {options.map(([v, label]) => (
        <label
          key={v}
          className="cursor-pointer rounded-lg border border-slate-300 px-2.5 py-1 text-sm text-slate-700 has-checked:border-brand-600 has-checked:bg-brand-50 has-checked:font-medium has-checked:text-brand-800 has-focus-visible:outline-2 has-focus-visible:outline-brand-600"
        >
          <input type="radio" className="sr-only" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
          {label}
        </label>
      ))}
    </fieldset>
  )
}

/** Tracks an element's rendered size; the element may change (a callback ref). */
function useSize<E extends HTMLElement>() {
  const [element, ref] = useState<E | null>(null)
  const [size, setSize] = useState({ width: 0, height: 0 })
  useEffect(() => {
    if (!element) return
    const measure = () => setSize({ width: element.clientWidth, height: element.clientHeight })
    measure()
    // Old browsers (and jsdom) have no ResizeObserver: the size measured once stands.
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [element])
  return { ref, size }
}

/**
 * The in-situ preview of issue 29: the creative drawn onto the face's photo in perspective (a CSS
 * matrix3d from the screen's four corners), by day or by night, and as a driver sees it from the
 * face's viewing distance (scaled to the angle it fills in a 60° windshield view, and blurred).
 * A face without a photo or corners shows the creative flat at the face's proportions, and says so.
 * Give it a key per face, so a new photo starts loading afresh.
 */
export default function InSituPreview({
  face,
  creativeUrl,
  creativeAlt,
  serverPreview,
}: {
  face: PreviewFace
  creativeUrl: string
  creativeAlt: string
  /** The server's PNG for a light and view, for a face whose photo and corners the page lacks. */
  serverPreview?: (light: Light, view: View) => string
}) {
  const [light, setLight] = useState<Light>('day')
  const [view, setView] = useState<View>('photo')
  const [photo, setPhoto] = useState<'loading' | 'ready' | 'failed'>('loading')
  const [server, setServer] = useState<{ url: string; state: 'loading' | 'ready' | 'failed' } | null>(null)
  const { ref, size } = useSize<HTMLDivElement>()
  const captionId = useId()
  const hasPhoto = !!face.photoUrl && !!face.corners && photo !== 'failed'

  // The creative is laid out at 1000 px wide and the matrix maps it onto the corners.
  const CW = 1000
  const CH = Math.round((CW * face.height_ft) / Math.max(face.width_ft, 0.01)) || 300
  const transform = hasPhoto && size.width > 0 ? matrix3d(CW, CH, scaleCorners(face.corners!, size.width, size.height)) : null

  const share = apparentShare(face.width_ft, face.viewing_distance_ft)
  // The screen's width on the photo, as a share of it: the drive-by view scales the photo so the
  // screen fills `share` of the view.
  const screenShare = face.corners ? Math.max(0.05, Math.max(face.corners[1].x, face.corners[2].x) - Math.min(face.corners[0].x, face.corners[3].x)) : 1
  const drive = view === 'driveby' ? { scale: Math.min(1, share / screenShare), blur: Math.min(3, 0.4 + face.viewing_distance_ft / 300) } : null

  const night = light === 'night'
  const serverUrl = !hasPhoto && serverPreview ? serverPreview(light, view) : null
  const serverState = serverUrl && server?.url === serverUrl ? server.state : 'loading'
  const useServer = serverUrl !== null && !(server?.url === serverUrl && server.state === 'failed')
  const description =
    `${creativeAlt} on ${face.name}, ${night ? 'at night' : 'by day'}` +
    (drive ? `, as a driver sees it from ${face.viewing_distance_ft} ft` : '') +
    (hasPhoto || useServer ? '' : ' (no photo of this face: shown flat)')

  return (
    <figure className="space-y-2" data-testid="in-situ-preview" data-light={light} data-view={view}>
      <div className="flex flex-wrap gap-3">
        <Choice legend="Light" value={light} options={[['day', 'Day'], ['night', 'Night']]} onChange={setLight} />
        <Choice legend="View" value={view} options={[['photo', 'Photo'], ['driveby', 'Drive-by']]} onChange={setView} />
      </div>
      <div role="img" aria-labelledby={captionId} className={`relative overflow-hidden rounded-lg ${night ? 'bg-slate-950' : 'bg-sky-100'}`}>
        <div
          className="origin-center transition-transform"
          style={drive && !useServer ? { transform: `scale(${drive.scale})`, filter: `blur(${drive.blur}px)` } : undefined}
        >
          {useServer ? (
            <div ref={ref} className="relative min-h-24">
              <img
                src={serverUrl!}
                alt=""
                className="block w-full"
                onLoad={() => setServer({ url: serverUrl!, state: 'ready' })}
                onError={() => setServer({ url: serverUrl!, state: 'failed' })}
              />
              {serverState === 'loading' && (
                <div className="absolute inset-0 flex items-center justify-center">
                  <Busy label="Drawing the preview…" />
                </div>
              )}
            </div>
          ) : hasPhoto ? (
            <div ref={ref} className="relative">
              <img
                src={face.photoUrl!}
                alt=""
                className="block w-full"
                style={night ? { filter: 'brightness(0.3) saturate(0.6)' } : undefined}
                onLoad={() => setPhoto('ready')}
                onError={() => setPhoto('failed')}
              />
              {transform && photo === 'ready' && (
                <img
                  src={creativeUrl}
                  alt=""
                  // Letterboxed like the face shows a creative of another shape (the size check).
                  className="absolute top-0 left-0 bg-black object-contain"
                  style={{
                    width: CW,
                    height: CH,
                    maxWidth: 'none',
                    transformOrigin: '0 0',
                    transform,
                    // A lit screen at night: its own light, a soft glow around it.
                    filter: night ? 'drop-shadow(0 0 12px rgba(255,255,255,0.35))' : undefined,
                  }}
                />
              )}
              {photo === 'loading' && (
                <div className="absolute inset-0 flex items-center justify-center">
                  <Busy label="Loading the face photo…" />
                </div>
              )}
            </div>
          ) : (
            <div ref={ref} className="flex items-center justify-center p-6">
              <img
                src={creativeUrl}
                alt=""
                className="w-full rounded-sm border-4 border-slate-700 bg-black object-contain"
                style={{ aspectRatio: `${face.width_ft} / ${face.height_ft}`, filter: night ? 'drop-shadow(0 0 12px rgba(255,255,255,0.35))' : undefined }}
              />
            </div>
          )}
        </div>
      </div>
      <figcaption id={captionId} className="text-xs text-slate-600">
        {description}.
        {useServer ? '' : !face.photoUrl || !face.corners ? ' An admin has not marked this face’s screen on a photo yet.' : photo === 'failed' ? ' The face photo could not be loaded.' : ''}
      </figcaption>
    </figure>
  )
}
