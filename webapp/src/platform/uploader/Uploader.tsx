import { useEffect, useId, useRef, useState, type DragEvent, type ReactNode } from 'react'
import { sendFiles, type SendFilesOptions, type UploadedFile } from './sendFiles'
import { checkSelection, UPLOAD_RULES, type UploadKind } from './uploadRules'

export interface UploaderProps {
  kind: UploadKind
  /** The upload call, e.g. `/upload_creative`. */
  url: string
  params?: SendFilesOptions['params']
  /** Query parameters that depend on the chosen files (e.g. `/upload_file?type=`). */
  paramsFor?: (files: File[]) => SendFilesOptions['params']
  /** The dropzone's visible label. */
  label: string
  /** Called once the server has stored the files. */
  onUploaded: (files: UploadedFile[]) => void
  /** Called with the accepted files when an upload starts, so a form can forget an earlier file. */
  onStart?: (files: File[]) => void
  /** Called when an upload that started has ended, stored, failed or canceled: a form waits for it before saving. */
  onSettled?: () => void
  /** An error the form wants shown on the dropzone (e.g. 'Sorry! you must first upload your content'). */
  error?: string | null
  disabled?: boolean
  /** Extra words under the limits. */
  hint?: ReactNode
  /** What the call answers on success (sendFiles' `answer`): the stored files by default. */
  answer?: SendFilesOptions['answer']
}

interface Rejected {
  name: string
  error: string
}

// Image types every browser draws (a TIFF creative is uploaded without a preview).
const PREVIEWABLE = ['image/jpeg', 'image/png', 'image/gif', 'image/webp']

/** Object URLs of the accepted files a browser can draw, by file name. */
function localPreviews(files: File[]): Record<string, string> {
  const out: Record<string, string> = {}
  if (typeof URL.createObjectURL !== 'function') return out
  for (const f of files) if (PREVIEWABLE.includes(f.type)) out[f.name] = URL.createObjectURL(f)
  return out
}

type Phase =
  | { state: 'idle' }
  | { state: 'uploading'; names: string[]; progress: number }
  | { state: 'done'; files: UploadedFile[]; previews: Record<string, string> }
  | { state: 'failed'; message: string }

/**
 * The dropzone of A §5: a click or a drop picks files, each is checked for type, size and count
 * before anything is sent, then the valid ones go out with a progress bar that can be canceled.
 * Each refused file says why; a failed upload follows the A §8 rule.
 */
export default function Uploader({ kind, url, params, paramsFor, label, onUploaded, onStart, onSettled, error, disabled = false, hint, answer }: UploaderProps) {
  const id = useId()
  const rule = UPLOAD_RULES[kind]
  const input = useRef<HTMLInputElement>(null)
  const abort = useRef<AbortController | null>(null)
  const [dragging, setDragging] = useState(false)
  const [selectionError, setSelectionError] = useState<string | null>(null)
  const [rejected, setRejected] = useState<Rejected[]>([])
  const [phase, setPhase] = useState<Phase>({ state: 'idle' })

  useEffect(() => () => abort.current?.abort(), [])
  // The local previews (object URLs) are released when replaced and when the dropzone goes.
  const previews = phase.state === 'done' ? phase.previews : null
  useEffect(() => () => Object.values(previews ?? {}).forEach((u) => URL.revokeObjectURL(u)), [previews])

  const take = async (list: File[]) => {
    if (disabled || list.length === 0 || phase.state === 'uploading') return
    const check = checkSelection(kind, list)
    setSelectionError(check.error)
    if (check.error) {
      setRejected([])
      return
    }
    setRejected(check.files.filter((f) => f.error).map((f) => ({ name: f.file.name, error: f.error! })))
    const accepted = check.files.filter((f) => !f.error).map((f) => f.file)
    if (accepted.length === 0) return

    onStart?.(accepted)
    const controller = new AbortController()
    abort.current = controller
    setPhase({ state: 'uploading', names: accepted.map((f) => f.name), progress: 0 })
    const result = await sendFiles({
      url,
      params: paramsFor ? { ...params, ...paramsFor(accepted) } : params,
      field: rule.maxFiles > 1 ? 'files' : 'file',
      files: accepted,
      signal: controller.signal,
      answer,
      onProgress: (progress) => setPhase((p) => (p.state === 'uploading' ? { ...p, progress } : p)),
    })
    abort.current = null
    if (result.ok) {
      setPhase({ state: 'done', files: result.files, previews: localPreviews(accepted) })
      onUploaded(result.files)
    } else {
      setPhase(result.canceled ? { state: 'idle' } : { state: 'failed', message: result.message })
    }
    onSettled?.()
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    void take(Array.from(event.dataTransfer.files))
  }

  const shownError = selectionError ?? (phase.state === 'failed' ? phase.message : null) ?? error ?? null
  const errorId = `${id}-error`
  const percent = phase.state === 'uploading' ? Math.round(phase.progress * 100) : 0

  return (
    <div className="space-y-2">
      <span id={`${id}-label`} className="block text-sm font-medium text-slate-700">
        {label}
      </span>
      <div
        onDragOver={(e) => {
          e.preventDefault()
          if (!disabled) setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`rounded-xl border-2 border-dashed px-4 py-6 text-center transition-colors ${
          dragging ? 'border-brand-600 bg-brand-50' : shownError ? 'border-red-400 bg-red-50/40' : 'border-slate-300 bg-slate-50'
        }`}
      >
        <input
          ref={input}
          id={`${id}-input`}
          type="file"
          className="sr-only"
          accept={rule.accept}
          multiple={rule.maxFiles > 1}
          disabled={disabled || phase.state === 'uploading'}
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint${shownError ? ` ${errorId}` : ''}`}
          aria-invalid={shownError ? true : undefined}
          onChange={(e) => {
            const files = Array.from(e.target.files ?? [])
            e.target.value = ''
            void take(files)
          }}
        />
        <svg aria-hidden="true" viewBox="0 0 24 24" className="mx-auto h-8 w-8 text-slate-400" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
          <path d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
        </svg>
        <p className="mt-2 text-sm text-slate-700">
          Drag and drop here, or{' '}
          <button
            type="button"
            className="link"
            disabled={disabled || phase.state === 'uploading'}
            onClick={() => input.current?.click()}
          >
            choose {rule.maxFiles > 1 ? 'files' : 'a file'}
          </button>
        </p>
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {rule.describe}
          {hint ? <> · {hint}</> : null}
        </p>
      </div>

      {phase.state === 'uploading' && (
        <div className="space-y-1">
          <div className="flex items-center justify-between gap-2 text-sm text-slate-600">
            <span className="truncate">Uploading {phase.names.join(', ')}</span>
            <button type="button" className="btn-ghost px-2 py-1" onClick={() => abort.current?.abort()}>
              Cancel upload
            </button>
          </div>
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={`${percent}%`}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        </div>
      )}

      {phase.state === 'done' && (
        <ul className="space-y-1 text-sm text-emerald-700" aria-label="Uploaded files">
          {phase.files.map((f) => (
            <li key={f.path} className="flex items-center gap-2">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z" />
              </svg>
              Uploaded {f.originalname}
              {phase.previews[f.originalname] && (
                // What was sent, seen before it is saved (the dialog showed no preview).
                <img src={phase.previews[f.originalname]} alt={`Preview of ${f.originalname}`} className="ml-auto h-14 max-w-40 rounded border border-slate-200 bg-slate-100 object-contain" />
              )}
            </li>
          ))}
        </ul>
      )}

      {shownError && (
        <p id={errorId} role="alert" className="text-sm text-red-600">
          {shownError}
        </p>
      )}
      {rejected.length > 0 && (
        <ul className="space-y-1 text-sm text-red-600" aria-label="Files not uploaded">
          {rejected.map((r) => (
            <li key={r.name} role="alert">
              <span className="font-medium">{r.name}</span>: {r.error}
            </li>
          ))}
        </ul>
      )}
      <p className="sr-only" aria-live="polite">
        {phase.state === 'uploading' ? `Uploading, ${percent}%` : phase.state === 'done' ? 'Upload complete' : ''}
      </p>
    </div>
  )
}
