import { useState } from 'react'
import Alert from '../../../platform/Alert'
import { MsgCreativeSaved, MsgSaveFailed } from '../../../platform/api-types/creatives'
import { useCreateCreativeMutation } from '../shared/api'
import Modal from '../../../platform/Modal'
import type { UploadedFile } from '../../../platform/uploader/sendFiles'
import Uploader from '../../../platform/uploader/Uploader'

type Outcome = { saved: number; failed: string[] }

/**
 * The library upload (A §5: up to 20 files at once, /upload_creative_library): each stored file
 * becomes a creative named after its file.
 */
export default function BulkCreativesModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [create] = useCreateCreativeMutation()
  const [saving, setSaving] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)

  const close = () => {
    setOutcome(null)
    onClose()
  }

  const saveAll = async (files: UploadedFile[]) => {
    setSaving(true)
    const failed: string[] = []
    let saved = 0
    for (const file of files) {
      const name = file.originalname.replace(/\.[^.]+$/, '').slice(0, 100) || 'Creative'
      try {
        await create({ creative: { name, alt: name, url: file.path } }).unwrap()
        saved += 1
      } catch {
        failed.push(file.originalname)
      }
    }
    setSaving(false)
    setOutcome({ saved, failed })
  }

  return (
    <Modal
      open={open}
      title="Upload several creatives"
      onClose={close}
      closeOnBackdrop={false}
      footer={
        <button type="button" className="btn-secondary" onClick={close} disabled={saving}>
          {outcome ? 'Done' : 'Cancel'}
        </button>
      }
    >
      <div className="space-y-4">
        {outcome && outcome.failed.length === 0 && <Alert tone="success">{MsgCreativeSaved}</Alert>}
        {outcome && outcome.failed.length > 0 && (
          <Alert>
            {MsgSaveFailed} ({outcome.failed.join(', ')}). {outcome.saved > 0 ? `${outcome.saved} saved.` : ''}
          </Alert>
        )}
        <Uploader kind="creativeLibrary" url="/upload_creative_library" label="Creative files" disabled={saving} onStart={() => setOutcome(null)} onUploaded={(files) => void saveAll(files)} />
        {saving && <p className="text-sm text-slate-600">Saving your creatives…</p>}
      </div>
    </Modal>
  )
}
