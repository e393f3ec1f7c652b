import { useState } from 'react'
import Alert from '../../../platform/Alert'
import { MsgBuildHint, type Creative } from '../../../platform/api-types/creatives'
import Modal from '../../../platform/Modal'
import Spinner from '../../../platform/Spinner'
import Tabs from '../../../platform/Tabs'
import { useCreativesOfSizeQuery, useListCreativesQuery } from './api'
import CreativeRequestForm from './CreativeRequestForm'
import CreativeUploadForm from './CreativeUploadForm'

export interface CreativeSelectorModalProps {
  open: boolean
  onClose: () => void
  /** The chosen creative: uploaded, or picked from the library. */
  onSelect: (creative: Creative) => void
  /** The face size a campaign needs: the library shows only creatives of that size. */
  size?: { width: number; height: number }
  title?: string
}

type Way = 'upload' | 'library' | 'request'

/**
 * A §2 creative selector: upload a creative, pick one from the company's library, or request a
 * build. Campaign creation (B §2) reuses it; the chosen creative comes back through onSelect.
 */
export default function CreativeSelectorModal({ open, onClose, onSelect, size, title = 'Choose a creative' }: CreativeSelectorModalProps) {
  const [way, setWay] = useState<Way>('upload')
  const [busy, setBusy] = useState(false)
  const [picked, setPicked] = useState<string | null>(null)

  const close = () => {
    setPicked(null)
    setWay('upload')
    onClose()
  }

  const footerAction =
    way === 'upload' ? (
      <button type="submit" form="creative-selector-upload" className="btn-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save creative'}
      </button>
    ) : way === 'request' ? (
      <button type="submit" form="creative-selector-request" className="btn-primary" disabled={busy}>
        {busy ? 'Sending…' : 'Send request'}
      </button>
    ) : null

  return (
    <Modal
      open={open}
      title={title}
      onClose={close}
      size="lg"
      closeOnBackdrop={false}
      description={<span data-testid="creative-hint">{MsgBuildHint}</span>}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={close}>
            Cancel
          </button>
          {footerAction}
        </>
      }
    >
      <Tabs
        label="How to add a creative"
        selected={way}
        onSelect={(id) => setWay(id as Way)}
        tabs={[
          {
            id: 'upload',
            label: 'Upload',
            content: (
              <CreativeUploadForm
                formId="creative-selector-upload"
                size={size}
                onBusyChange={setBusy}
                onSaved={(creative) => {
                  onSelect(creative)
                  close()
                }}
              />
            ),
          },
          {
            id: 'library',
            label: 'Pick from library',
            content: (
              <CreativeLibraryPicker
                size={size}
                picked={picked}
                onPick={(creative) => {
                  setPicked(creative.id)
                  onSelect(creative)
                  close()
                }}
              />
            ),
          },
          {
            id: 'request',
            label: 'Request a build',
            content: <CreativeRequestForm formId="creative-selector-request" onBusyChange={setBusy} />,
          },
        ]}
      />
    </Modal>
  )
}

function CreativeLibraryPicker({ size, picked, onPick }: { size?: { width: number; height: number }; picked: string | null; onPick: (c: Creative) => void }) {
  const all = useListCreativesQuery({ page: 1, page_size: 0 }, { skip: !!size })
  const sized = useCreativesOfSizeQuery(size ?? { width: 0, height: 0 }, { skip: !size })
  const query = size ? sized : all
  const creatives = size ? sized.data : all.data?.items

  if (query.isLoading) return <Spinner label="Loading your creatives" />
  if (query.isError) return <Alert>We could not load your creatives. Please try again.</Alert>
  if (!creatives || creatives.length === 0) {
    return (
      <p className="rounded-lg bg-slate-50 px-4 py-8 text-center text-sm text-slate-600">
        {size ? `You have no ${size.width}x${size.height} creatives yet.` : 'You have no creatives yet.'} Upload one, or request a build.
      </p>
    )
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Your creatives">
      {creatives.map((creative) => (
        <li key={creative.id}>
          <button
            type="button"
            aria-pressed={picked === creative.id}
            aria-label={`Use ${creative.name}${creative.is_default ? ' (company default)' : ''}`}
            className="group w-full overflow-hidden rounded-xl border border-slate-200 bg-white text-left hover:border-brand-600 focus-visible:border-brand-600 aria-pressed:border-brand-700 aria-pressed:ring-2 aria-pressed:ring-brand-200"
            onClick={() => onPick(creative)}
          >
            <img src={creative.converted_thumb || creative.awsUrl} alt="" className="aspect-[7/2] w-full bg-slate-100 object-contain" loading="lazy" />
            <span className="block truncate px-2 py-1.5 text-sm text-slate-800">{creative.name}</span>
            {creative.is_default && <span className="block px-2 pb-1.5 text-xs text-brand-700">Company default</span>}
          </button>
        </li>
      ))}
    </ul>
  )
}
