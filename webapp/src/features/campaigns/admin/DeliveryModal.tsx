import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import Modal from '../../../platform/Modal'
import { CreativeTypeProof, type Week } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import TextInput from '../../../platform/inputs/TextInput'
import { formatCount } from '../../../platform/money'
import Uploader from '../../../platform/uploader/Uploader'
import { useAdminAddProofsMutation, useAdminDeleteProofMutation, useAdminRecordDeliveryMutation } from '../adminApi'
import { MSG_IMPRESSIONS_INVALID, parseImpressions, productLabel } from './adminRules'

export const MSG_DELIVERY_SAVED = 'The actual impressions have been recorded.'
export const MSG_PROOFS_ADDED = 'The proof images have been added to the week.'
export const MSG_PROOF_REMOVED = 'The proof image has been removed.'
/** Proof images go up through the platform uploader as temporary files, then join the week. */
export const PROOF_UPLOAD_URL = '/upload_temp'

/**
 * Recording delivery (issue 7): an admin types a week's actual impressions (they feed the
 * advertiser's chart and the reports) and adds or removes its proof images.
 */
export default function DeliveryModal({ week, onClose }: { week: Week | null; onClose: () => void }) {
  return (
    <Modal open={week !== null} title="Record delivery" onClose={onClose} size="lg" description={week ? weekTitle(week) : undefined}>
      {week && <DeliveryForm key={week.id} week={week} />}
    </Modal>
  )
}

function weekTitle(week: Week): string {
  return `${productLabel(week)} · ${formatDisplayDate(week.start_at)} – ${formatDisplayDate(week.end_at)}`
}

function DeliveryForm({ week }: { week: Week }) {
  const [impressions, setImpressions] = useState(week.act_imp != null ? String(week.act_imp) : '')
  const [error, setError] = useState<string | null>(null)
  const [proofError, setProofError] = useState<string | null>(null)
  const [record, recording] = useAdminRecordDeliveryMutation()
  const [addProofs, adding] = useAdminAddProofsMutation()
  const [deleteProof, removing] = useAdminDeleteProofMutation()
  const dispatch = useDispatch()
  const proofs = (week.creatives ?? []).filter((c) => c.creative_type === CreativeTypeProof)

  const onSave = async (event: FormEvent) => {
    event.preventDefault()
    const actImp = parseImpressions(impressions)
    if (actImp === null) {
      setError(MSG_IMPRESSIONS_INVALID)
      return
    }
    setError(null)
    try {
      await record({ weekId: week.id, body: { act_imp: actImp } }).unwrap()
      dispatch(flashShown(MSG_DELIVERY_SAVED, 'success'))
    } catch (e) {
      setError(`Sorry! ${errorMessage(e)}`)
    }
  }

  const onUploaded = async (files: { path: string; originalname: string }[]) => {
    setProofError(null)
    try {
      await addProofs({ weekId: week.id, body: { files: files.map((f) => ({ path: f.path, originalname: f.originalname })) } }).unwrap()
      dispatch(flashShown(MSG_PROOFS_ADDED, 'success'))
    } catch (e) {
      setProofError(`Sorry! ${errorMessage(e)}`)
    }
  }

  const onRemove = async (proofId: string) => {
    setProofError(null)
    try {
      await deleteProof(proofId).unwrap()
      dispatch(flashShown(MSG_PROOF_REMOVED, 'success'))
    } catch (e) {
      setProofError(`Sorry! ${errorMessage(e)}`)
    }
  }

  return (
    <div className="space-y-6">
      <form noValidate onSubmit={onSave} className="space-y-3">
        <TextInput
          id={`act-imp-${week.id}`}
          label="Actual impressions"
          inputMode="numeric"
          value={impressions}
          onChange={(v) => {
            setImpressions(v)
            setError(null)
          }}
          hint={`Estimated minimum for this week: ${formatCount(week.product_ooh)}`}
          error={error}
        />
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={recording.isLoading}>
            {recording.isLoading ? 'Saving…' : 'Save impressions'}
          </button>
        </div>
      </form>

      <section aria-labelledby={`proofs-${week.id}`} className="space-y-3">
        <h3 id={`proofs-${week.id}`} className="text-sm font-semibold text-slate-900">
          Proof images
        </h3>
        {proofs.length === 0 ? (
          <p className="text-sm text-slate-500">No proof yet for this week.</p>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label="Proofs of this week">
            {proofs.map((p) => (
              <li key={p.id} className="space-y-1">
                <a href={p.url} target="_blank" rel="noreferrer" className="block overflow-hidden rounded-lg border border-slate-200">
                  <img src={p.converted_thumb || p.url} alt={`Proof added ${formatDisplayDate(p.created_at)}`} className="h-24 w-full object-cover" loading="lazy" />
                </a>
                <button type="button" className="btn-ghost w-full px-2 py-1 text-xs text-red-700" disabled={removing.isLoading} onClick={() => onRemove(p.id)}>
                  Remove proof
                </button>
              </li>
            ))}
          </ul>
        )}
        {proofError && <Alert>{proofError}</Alert>}
        <Uploader kind="image" url={PROOF_UPLOAD_URL} label="Add proof images" onUploaded={onUploaded} disabled={adding.isLoading} />
      </section>
    </div>
  )
}
