import { useId, useRef, useState } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import Confirm from '../../../platform/Confirm'
import { MaxFacePhotoBytes, MsgFacePhotoTooLarge, MsgFacePhotoType } from '../../../platform/api-types/locations'
import { sendFiles } from '../../../platform/uploader/sendFiles'
import { faceGeometryApi } from '../shared/faceGeometryApi'

// The server decides by content (docs/inventory.md "Face photos"); these checks only spare the
// admin a useless upload. The messages are the server's.
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp']

/** What the client can tell of a chosen photo before it is sent: a message, or null. */
export function photoProblem(file: { size: number; type: string }): string | null {
  if (file.size > MaxFacePhotoBytes) return MsgFacePhotoTooLarge
  if (file.type && !PHOTO_TYPES.includes(file.type)) return MsgFacePhotoType
  return null
}

type Phase = { state: 'idle' } | { state: 'uploading'; progress: number } | { state: 'done' } | { state: 'failed'; message: string }

/**
 * Issue 29: an admin gives a face its photo (POST /api/admin/faces/{id}/photo), with the upload's
 * progress. A face without a photo shows an empty state inviting one; replacing a photo whose
 * screen is marked asks first, since a new photo clears the corners. The faces are refetched, and
 * the editor then shows the corner editor on the new photo.
 */
export default function FacePhotoUpload({ faceId, hasPhoto, hasCorners }: { faceId: string; hasPhoto: boolean; hasCorners: boolean }) {
  const id = useId()
  const dispatch = useDispatch()
  const input = useRef<HTMLInputElement>(null)
  const [phase, setPhase] = useState<Phase>({ state: 'idle' })
  const [pending, setPending] = useState<File | null>(null)
  const abort = useRef<AbortController | null>(null)

  const send = async (file: File) => {
    const problem = photoProblem(file)
    if (problem) {
      setPhase({ state: 'failed', message: problem })
      return
    }
    abort.current = new AbortController()
    setPhase({ state: 'uploading', progress: 0 })
    const result = await sendFiles({
      url: `/api/admin/faces/${encodeURIComponent(faceId)}/photo`,
      field: 'file',
      files: [file],
      answer: 'message',
      signal: abort.current.signal,
      onProgress: (progress) => setPhase((p) => (p.state === 'uploading' ? { state: 'uploading', progress } : p)),
    })
    if (!result.ok) {
      setPhase(result.canceled ? { state: 'idle' } : { state: 'failed', message: result.message })
      return
    }
    setPhase({ state: 'done' })
    dispatch(faceGeometryApi.util.invalidateTags(['FaceGeometry']))
  }

  const choose = (file: File | undefined) => {
    if (!file) return
    if (hasCorners) setPending(file)
    else void send(file)
  }

  const percent = phase.state === 'uploading' ? Math.round(phase.progress * 100) : 0
  const busy = phase.state === 'uploading'
  const label = hasPhoto ? 'Replace the photo' : 'Upload a photo'
  return (
    <div className={hasPhoto ? 'space-y-2' : 'space-y-3 rounded-xl border-2 border-dashed border-slate-300 bg-slate-50 px-4 py-6 text-center'} data-testid="face-photo-upload">
      {!hasPhoto && (
        <>
          <p className="text-sm font-medium text-slate-900">This face has no photo yet.</p>
          <p id={`${id}-why`} className="text-sm text-slate-600">
            Upload a photo of the face as drivers see it. You then drag the screen&apos;s four corners on it, and advertisers see their creative in place.
          </p>
        </>
      )}
      <input
        ref={input}
        id={`${id}-input`}
        type="file"
        accept={PHOTO_TYPES.join(',')}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        disabled={busy}
        onChange={(e) => {
          const file = e.target.files?.[0]
          e.target.value = ''
          choose(file)
        }}
      />
      <div className={hasPhoto ? 'flex flex-wrap items-center gap-2' : 'flex justify-center'}>
        <button type="button" className={hasPhoto ? 'btn-secondary' : 'btn-primary'} disabled={busy} aria-describedby={`${id}-hint`} onClick={() => input.current?.click()}>
          {label}
        </button>
        <span id={`${id}-hint`} className="text-xs text-slate-600">
          JPEG, PNG or WebP, up to {MaxFacePhotoBytes / (1024 * 1024)} MB.
        </span>
      </div>
      {phase.state === 'uploading' && (
        <div className="space-y-1 text-left">
          <div className="flex items-center justify-between gap-2 text-sm text-slate-600">
            <span>Uploading the photo… {percent}%</span>
            <button type="button" className="btn-ghost px-2 py-1" onClick={() => abort.current?.abort()}>
              Cancel upload
            </button>
          </div>
          <div role="progressbar" aria-label="Photo upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={`${percent}%`} className="h-2 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        </div>
      )}
      {phase.state === 'failed' && <Alert>{phase.message}</Alert>}
      {phase.state === 'done' && <Alert tone="success">The photo is uploaded. Drag the four corners onto the screen, then save the face.</Alert>}
      <Confirm
        open={pending !== null}
        title="Replace the photo?"
        message="The screen's corners are marked on the current photo. A new photo clears them, and you mark the screen again on it."
        confirmText="Replace the photo"
        tone="danger"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          const file = pending
          setPending(null)
          if (file) void send(file)
        }}
      />
    </div>
  )
}
