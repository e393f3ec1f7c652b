import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import Alert from '../../../platform/Alert'
import { MsgCreativeSaved, MsgSaveFailed, MsgUploadCreative, type Creative } from '../../../platform/api-types/creatives'
import { useFocusFirstInvalid } from '../../../platform/forms'
import TextInput from '../../../platform/inputs/TextInput'
import type { UploadedFile } from '../../../platform/uploader/sendFiles'
import Uploader from '../../../platform/uploader/Uploader'
import { useCreateCreativeMutation } from './api'
import { REFERENCE_FACE, type PreflightReport } from './preflight'
import { useFilePreflightMutation } from './preflightApi'
import PreflightPanel from './PreflightPanel'

/** A §9: the creative confirmation closes after 3000 ms. */
export const CREATIVE_CONFIRMATION_MS = 3000

export interface CreativeUploadFormProps {
  /** The form element's id, for a submit button outside it (a modal footer). */
  formId: string
  /** Called after the confirmation has shown for 3000 ms. */
  onSaved: (creative: Creative) => void
  /** The face size a campaign needs (B §7 `/upload_creative?width=&height=`). */
  size?: { width: number; height: number }
  /** An admin saves for this company (B §2). */
  company?: string
  /** Reports whether a save is under way, for the footer's button. */
  onBusyChange?: (busy: boolean) => void
}

function baseName(name: string): string {
  const dot = name.lastIndexOf('.')
  return (dot > 0 ? name.slice(0, dot) : name).slice(0, 100)
}

/**
 * Upload one creative (A §5: one jpeg or tif up to 10 MB) and save it with a name and alt text.
 * Saving before the upload says 'Sorry! you must first upload your creative'; a saved creative
 * shows 'Creative uploaded successfully' for 3000 ms (A §8, §9) before onSaved.
 */
export default function CreativeUploadForm({ formId, onSaved, size, company, onBusyChange }: CreativeUploadFormProps) {
  const ids = useId()
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null)
  const [name, setName] = useState('')
  const [alt, setAlt] = useState('')
  const [fileError, setFileError] = useState<string | null>(null)
  const [nameError, setNameError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [saved, setSaved] = useState<Creative | null>(null)
  const [create, { isLoading }] = useCreateCreativeMutation()
  // Issue 29: the upload answers the image's pre-flight; a server that did not (or a failed
  // analysis) is asked again with the file itself.
  const [preflight, setPreflight] = useState<{ report?: PreflightReport | null; loading?: boolean; error?: string } | null>(null)
  const [checkFile] = useFilePreflightMutation()
  const lastFile = useRef<File | null>(null)
  // A save while the file is on its way waits for it (the dropzone shows the progress), rather
  // than saying the creative was never uploaded.
  const [uploading, setUploading] = useState(false)
  const { ref, focusInvalid } = useFocusFirstInvalid()
  const onSavedRef = useRef(onSaved)
  useEffect(() => {
    onSavedRef.current = onSaved
  })

  useEffect(() => onBusyChange?.(isLoading || saved !== null), [isLoading, saved, onBusyChange])

  useEffect(() => {
    if (!saved) return
    const timer = window.setTimeout(() => onSavedRef.current(saved), CREATIVE_CONFIRMATION_MS)
    return () => window.clearTimeout(timer)
  }, [saved])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (saved || isLoading || uploading) return
    setFailure(null)
    const missingFile = uploaded ? null : MsgUploadCreative
    const missingName = name.trim() ? null : 'Please give the creative a name'
    setFileError(missingFile)
    setNameError(missingName)
    if (missingFile || missingName) {
      focusInvalid()
      return
    }
    try {
      const creative = await create({
        creative: { name: name.trim(), alt: alt.trim(), url: uploaded!.path },
        ...(company ? { company } : {}),
      }).unwrap()
      setSaved(creative)
    } catch {
      setFailure(MsgSaveFailed)
    }
  }

  if (saved) {
    return (
      <div className="space-y-4">
        <Alert tone="success">{MsgCreativeSaved}</Alert>
        <img src={saved.awsUrl} alt={saved.alt || saved.name} className="max-h-48 w-full rounded-lg border border-slate-200 bg-slate-50 object-contain" />
      </div>
    )
  }

  return (
    <form id={formId} ref={ref} noValidate onSubmit={onSubmit} className="space-y-5">
      {failure && <Alert>{failure}</Alert>}
      <Uploader
        kind="creative"
        url="/upload_creative"
        params={size ? { width: size.width, height: size.height } : undefined}
        label="Creative file"
        error={fileError}
        hint={size ? `This face needs ${size.width}x${size.height} pixels` : undefined}
        onSettled={() => setUploading(false)}
        onStart={(files) => {
          setUploading(true)
          setUploaded(null)
          setPreflight(null)
          lastFile.current = files[0] ?? null
        }}
        onUploaded={(files) => {
          const file = files[0] ?? null
          setUploaded(file)
          const answered = (file as (UploadedFile & { preflight?: PreflightReport | null }) | null)?.preflight
          if (answered) setPreflight({ report: answered })
          else if (file && lastFile.current) {
            setPreflight({ loading: true })
            checkFile({ file: lastFile.current, face_ids: [] })
              .unwrap()
              .then((report) => setPreflight({ report }))
              .catch(() => setPreflight({ error: 'The pre-flight could not be made. You can still save the creative.' }))
          }
          setFileError(null)
          if (file && !name.trim()) setName(baseName(file.originalname))
        }}
      />
      {preflight && (
        <PreflightPanel title="Pre-flight of this image" report={preflight.report} loading={preflight.loading} error={preflight.error}>
          <p className="text-xs text-slate-600">{size ? `Checked for a ${size.width}x${size.height} face.` : `Checked on a standard ${REFERENCE_FACE.width_ft} x ${REFERENCE_FACE.height_ft} ft face read from ${REFERENCE_FACE.viewing_distance_ft} ft.`}</p>
        </PreflightPanel>
      )}
      <TextInput id={`${ids}-name`} label="Name" value={name} onChange={setName} maxLength={100} error={nameError} required />
      <TextInput id={`${ids}-alt`} label="Alt text" value={alt} onChange={setAlt} maxLength={200} optional hint="Describes the image for people who cannot see it." />
    </form>
  )
}
