import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { useNavigate, useSearchParams } from 'react-router'
import { MsgCreated, MsgUnexpected, StatusActive, type CampaignForm as CampaignFormBody, type ConflictResponse } from '../../../platform/api-types/campaigns'
import { MsgMarketsUnavailable } from '../../../platform/api-types/locations'
import { flash } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { useMarketsQuery } from '../../locations/shared/api'
import { selectUser } from '../../../platform/session'
import GuidedTour from '../../../platform/tour/GuidedTour'
import { useCreateCampaignMutation, useResolveConflictMutation } from '../createApi'
import CampaignForm, { type SubmitFailure } from '../new/CampaignForm'
import ConflictDialog, { type Resolution } from '../new/ConflictDialog'
import { discardDraft } from '../new/draft'
import { newIdempotencyKey } from '../new/rules'
import { NEW_CAMPAIGN_TOUR } from '../new/tourSteps'
import Alert from '../../../platform/Alert'
import Spinner from '../../../platform/Spinner'
import { useRenewPrefillQuery } from '../pacing/pacingApi'
import { renewInitial } from '../pacing/pacingRules'

/**
 * /campaigns/new (B §2): the campaign form, its submission with an Idempotency-Key, the
 * conflict dialog, and the 16-step tour that ?tour=true starts.
 */
export default function NewCampaign() {
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  // One key per form session (decision 8): a double submit makes one campaign.
  const key = useRef(newIdempotencyKey())
  const [create] = useCreateCampaignMutation()
  const [resolve, resolving] = useResolveConflictMutation()
  const [conflict, setConflict] = useState<ConflictResponse | null>(null)
  const [resolveError, setResolveError] = useState<string | null>(null)
  const [touring, setTouring] = useState(false)
  const wantsTour = useRef(params.get('tour') === 'true')
  const userId = useSelector(selectUser)?.id
  const markets = useMarketsQuery()
  // ?renew={id} prefills the form from that campaign (same faces, the next weeks); the
  // creation below is the normal one (quote, card, conflicts). A renewal neither restores nor keeps
  // the user's draft.
  const renewId = params.get('renew')
  const prefill = useRenewPrefillQuery(renewId ?? '', { skip: !renewId })
  const initial = useMemo(() => (prefill.data ? renewInitial(prefill.data) : undefined), [prefill.data])

  // A §8 / B §8: without markets there is no campaign to make; say so and go to the dashboard
  // rather than leave a broken form.
  useEffect(() => {
    if (!markets.isError) return
    dispatch(flash(MsgMarketsUnavailable, 'danger', { nextPage: true }))
    navigate('/dashboard', { replace: true })
  }, [markets.isError, dispatch, navigate])

  // B §2: ?tour=true starts the tour and is removed from the address (query changes do not
  // reload the screen, A §2).
  const onReady = useCallback(() => {
    if (!wantsTour.current) return
    wantsTour.current = false
    const next = new URLSearchParams(window.location.search)
    next.delete('tour')
    setParams(next, { replace: true })
    setTouring(true)
  }, [setParams])

  const submit = async (form: CampaignFormBody): Promise<SubmitFailure | void> => {
    const outcome = await create({ form, key: key.current }).unwrap()
    if (outcome.kind === 'created') {
      if (userId) discardDraft(userId)
      dispatch(flash(outcome.answer.message || MsgCreated, 'success', { nextPage: true }))
      // A campaign the credit paid in full is active at once: the success page must not say it
      // waits for a payment.
      navigate('/campaigns/success/submitted', { state: { active: outcome.answer.campaign?.status === StatusActive } })
      return
    }
    if (outcome.kind === 'conflict') {
      setResolveError(null)
      setConflict(outcome.answer)
      return
    }
    // A refused form gets a new key: the corrected form is another request. A lost connection
    // keeps it, so a retry cannot create the campaign twice.
    if (outcome.status !== 0) key.current = newIdempotencyKey()
    return { message: outcome.status === 0 || outcome.status >= 500 ? '' : outcome.message || '', errors: outcome.errors }
  }

  const onResolve = async (choice: Resolution) => {
    if (!conflict) return
    setResolveError(null)
    try {
      const answer = await resolve({ id: conflict.campaign.id, choice }).unwrap()
      if (userId) discardDraft(userId)
      dispatch(flash(answer.message || MsgCreated, 'success', { nextPage: true }))
      navigate('/campaigns')
    } catch (e) {
      setResolveError(`Sorry! ${errorMessage(e) || MsgUnexpected}`)
    }
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <header>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">New campaign</h1>
        <p className="mt-1 text-slate-600">Choose your billboards, your weeks and your ad, then review and confirm.</p>
      </header>
      {renewId && prefill.isFetching && !initial && <Spinner label="Loading the campaign to renew" />}
      {renewId && prefill.isError && <Alert tone="danger">{errorMessage(prefill.error)}</Alert>}
      {initial && (
        <Alert tone="info">
          Renewing “{prefill.data?.name.replace(/ \(renewed\)$/, '')}”: the same billboards for the next available weeks, at today’s prices. Review the quote before anything is booked or charged.
        </Alert>
      )}
      {(!renewId || initial || prefill.isError) && (
        <CampaignForm key={initial ? 'renew' : 'new'} mode="create" initial={initial} disabled={conflict !== null} onSubmit={submit} onReady={onReady} draftOwner={renewId ? undefined : userId} />
      )}
      <ConflictDialog
        conflict={conflict}
        busy={resolving.isLoading}
        error={resolveError}
        onResolve={(c) => void onResolve(c)}
        onClose={() => {
          // Closing keeps nothing: the holds expire by themselves (decision 7).
          setConflict(null)
          key.current = newIdempotencyKey()
        }}
      />
      <GuidedTour steps={NEW_CAMPAIGN_TOUR} running={touring} onEnd={() => setTouring(false)} />
    </div>
  )
}
