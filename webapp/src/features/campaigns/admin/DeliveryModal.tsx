import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import Modal from '../../../platform/Modal'
import { CreativeTypeProof, MsgActImpInvalid, MsgDeliveryUpdated, MsgProofDeleted, MsgProofsAdded, type Week } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import TextInput from '../../../platform/inputs/TextInput'
import { formatCount } from '../../../platform/money'
import Uploader from '../../../platform/uploader/Uploader'
import { proofsAdded, proofUploadUrl, useAdminDeleteProofMutation, useAdminRecordDeliveryMutation } from '../adminApi'
import { parseImpressions, productLabel } from './adminRules'

/**
 * Recording delivery: an admin types a week's actual impressions (they feed the
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
  const [deleteProof, removing] = useAdminDeleteProofMutation()
  const dispatch = useDispatch()
  const proofs = (week.creatives ?? []).filter((c) => c.creative_type === CreativeTypeProof)

  const onSave = async (event: FormEvent) => {
    event.preventDefault()
    const actImp = parseImpressions(impressions)
    if (actImp === null) {
      setError(MsgActImpInvalid)
      return
    }
    setError(null)
    try {
      const answer = await record({ weekId: week.id, body: { act_imp: actImp } }).unwrap()
      dispatch(flashShown(answer?.message || MsgDeliveryUpdated, 'success'))
    } catch (e) {
      setError(`Sorry! ${errorMessage(e)}`)
    }
  }

  // The uploader has stored the images as the week's proofs; the week is read again.
  const onUploaded = () => {
    setProofError(null)
    dispatch(proofsAdded())
    dispatch(flashShown(MsgProofsAdded, 'success'))
  }

  const onRemove = async (proofId: string) => {
    setProofError(null)
    try {
      const answer = await deleteProof(proofId).unwrap()
      dispatch(flashShown(answer?.message || MsgProofDeleted, 'success'))
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
        <Uploader kind="proof" url={proofUploadUrl(week.id)} answer="message" label="Add proof images" onUploaded={onUploaded} />
      </section>
    </div>
  )
}
