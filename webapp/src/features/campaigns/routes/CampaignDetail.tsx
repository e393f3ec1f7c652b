import { useState, type ReactNode } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate, useParams } from 'react-router'
import Alert from '../../../platform/Alert'
import { MsgCampaignNotFound, MsgCreativeFailed, MsgCreativeUpdated, MsgDeleted, MsgDeleteFailed, type CampaignDetail as CampaignDetailData, type CampaignLocation, type ChartSeries, type Week } from '../../../platform/api-types/campaigns'
import type { Creative } from '../../../platform/api-types/creatives'
import { usePaymentRetry } from '../../billing/shared/usePaymentRetry'
import LineChart from '../../../platform/chart/LineChart'
import Confirm from '../../../platform/Confirm'
import CreativeSelectorModal from '../../creatives/shared/CreativeSelectorModal'
import { formatDisplayDate } from '../../../platform/dates'
import { flash, flashShown } from '../../../platform/flash/flash'
import { errorMessage, isApiError } from '../../../platform/http'
import { formatCount, formatDollars } from '../../../platform/money'
import Spinner from '../../../platform/Spinner'
import {
  campaignsApi,
  useCampaignQuery,
  useChangeCreativeMutation,
  useDeleteCampaignMutation,
  usePauseCampaignMutation,
  useResumeCampaignMutation,
  useStopCampaignMutation,
} from '../api'
import DeleteCampaignModal from '../detail/DeleteCampaignModal'
import {
  ACTION_CONFIRMS,
  ACTION_DONE,
  allowedActions,
  failedPayment,
  imminentEndNotice,
  impressionsChart,
  impressionsToDate,
  notEditableReason,
  partialReports,
  pollInterval,
  weekRange,
  type CampaignAction,
} from '../detail/detailRules'
import LocationsPanel from '../detail/LocationsPanel'
import ProofsGallery from '../detail/ProofsGallery'
import MakeGoodsPanel from '../detail/MakeGoodsPanel'
import WeekTable from '../detail/WeekTable'
import PacingPanel from '../pacing/PacingPanel'
import { campaignType, displayStatus, frequencyLabel } from '../list/listRules'
import StatusBadge from '../list/StatusBadge'

/** What the creative selector changes: a location (or all of them) of the campaign, or one week. */
type CreativeTarget = { kind: 'campaign'; location: CampaignLocation | null } | { kind: 'week'; week: Week }

/**
 * B §2 /campaigns/{id}: status and market, the actions with the confirm texts of B §8, delete with
 * a reason and a refund flag, a creative per location (for the campaign or one week), proofs, the
 * map, the impressions chart and the week table. A pending campaign is read again every 5 s until
 * it is active (A §4); a failed first payment can be retried.
 */
export default function CampaignDetail() {
  const { id = '' } = useParams()
  const [polling, setPolling] = useState(0)
  const detail = useCampaignQuery(id, { pollingInterval: polling, skipPollingIfUnfocused: false })
  const campaign = detail.data
  const next = pollInterval(campaign?.status)
  // A §4: polling starts for a pending campaign and stops once it is active.
  if (next !== polling && campaign) setPolling(next)

  if (detail.isLoading) {
    return (
      <div className="flex justify-center py-24">
        <Spinner label="Loading the campaign" />
      </div>
    )
  }
  if (!campaign) {
    const notFound = isApiError(detail.error) && detail.error.status === 404
    return (
      <div className="space-y-4">
        <Alert>{notFound ? MsgCampaignNotFound : `Sorry! ${errorMessage(detail.error)}`}</Alert>
        <Link to="/campaigns" className="btn-secondary">
          Back to campaigns
        </Link>
      </div>
    )
  }
  // A key per campaign: moving to another campaign starts its page afresh (dialogs, week paging).
  return <CampaignView key={campaign.id} campaign={campaign} />
}

function CampaignView({ campaign }: { campaign: CampaignDetailData }) {
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const [confirming, setConfirming] = useState<CampaignAction | null>(null)
  const [deleting, setDeleting] = useState(false)
  const [creativeTarget, setCreativeTarget] = useState<CreativeTarget | null>(null)
  // A §2 'confirm update creative': the chosen creative waits for a yes before it is applied.
  const [pendingCreative, setPendingCreative] = useState<{ target: CreativeTarget; creative: Creative } | null>(null)
  const [applyingCreative, setApplyingCreative] = useState(false)
  const [pause, pausing] = usePauseCampaignMutation()
  const [resume, resuming] = useResumeCampaignMutation()
  const [stop, stopping] = useStopCampaignMutation()
  const [remove, removing] = useDeleteCampaignMutation()
  const [changeCreative] = useChangeCreativeMutation()
  const { retryPayment, isRetrying } = usePaymentRetry()

  const status = displayStatus(campaign.status)
  const actions = allowedActions(campaign)
  const imminent = imminentEndNotice(campaign)
  const payment = failedPayment(campaign)
  const markets = campaign.market?.length ? campaign.market.join(', ') : campaign.place_name || '—'
  const finished = status === 'completed' || status === 'canceled'

  const runAction = async () => {
    if (!confirming) return
    const action = confirming
    const call = action === 'pause' ? pause : action === 'resume' ? resume : stop
    try {
      const answer = await call(campaign.id).unwrap()
      dispatch(flashShown(answer.message || ACTION_DONE[action], 'success'))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    } finally {
      setConfirming(null)
    }
  }

  const runDelete = async (reason: string, refund: boolean) => {
    try {
      await remove({ id: campaign.id, reason, refund }).unwrap()
      setDeleting(false)
      dispatch(flash(MsgDeleted, 'success', { nextPage: true }))
      navigate('/campaigns')
    } catch {
      dispatch(flashShown(MsgDeleteFailed, 'danger'))
    }
  }

  const onCreative = async () => {
    if (!pendingCreative) return
    const { target, creative } = pendingCreative
    setApplyingCreative(true)
    try {
      if (target.kind === 'week') {
        await changeCreative({ id: target.week.id, week: true, campaignId: campaign.id, creative_id: creative.id, locations: [] }).unwrap()
      } else {
        await changeCreative({ id: campaign.id, campaignId: campaign.id, creative_id: creative.id, locations: target.location ? [target.location.id] : [] }).unwrap()
      }
      dispatch(flashShown(MsgCreativeUpdated, 'success'))
    } catch {
      dispatch(flashShown(MsgCreativeFailed, 'danger'))
    } finally {
      setApplyingCreative(false)
      setPendingCreative(null)
    }
  }

  // A payment that went through is read at once rather than at the next poll.
  const retry = async (transaction: string) => {
    if (await retryPayment(transaction)) dispatch(campaignsApi.util.invalidateTags([{ type: 'Campaign', id: campaign.id }]))
  }

  const creativeTitle = creativeTarget ? `Creative for ${targetName(creativeTarget)}` : ''

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to="/campaigns" className="text-brand-700 underline">
          Campaigns
        </Link>
        <span aria-hidden="true" className="px-2 text-slate-400">
          /
        </span>
        <span className="text-slate-600">{campaign.name}</span>
      </nav>

      <header data-testid="campaign-header" className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold break-words text-slate-900 sm:text-3xl">{campaign.name}</h1>
            <StatusBadge status={campaign.status} />
          </div>
          <p className="mt-1 text-slate-600">
            <span className="sr-only">Market: </span>
            {markets}
          </p>
        </div>
        <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Campaign actions">
          {campaign.editable && !finished ? (
            <Link to={`/campaigns/edit/${encodeURIComponent(campaign.id)}`} className="btn-secondary">
              Edit
            </Link>
          ) : null}
          {actions.pause && (
            <button type="button" className="btn-secondary" onClick={() => setConfirming('pause')}>
              Pause
            </button>
          )}
          {actions.resume && (
            <button type="button" className="btn-primary" onClick={() => setConfirming('resume')}>
              Resume
            </button>
          )}
          {actions.stop && (
            <button type="button" className="btn-secondary" onClick={() => setConfirming('stop')}>
              Mark complete
            </button>
          )}
          <button type="button" className="btn-danger" onClick={() => setDeleting(true)}>
            Delete
          </button>
        </div>
      </header>

      {status === 'pending' && !payment && (
        <Alert tone="info">
          <span className="inline-flex items-center gap-2">
            <Spinner label="" className="h-4 w-4" />
            Waiting for the payment confirmation. This page updates by itself.
          </span>
        </Alert>
      )}
      {payment && (
        <div role="alert" className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 sm:flex-row sm:items-center sm:justify-between">
          <p>
            <span className="font-semibold">Your payment did not go through: </span>
            {payment.message}
          </p>
          <div className="flex shrink-0 flex-wrap gap-2">
            <Link to="/settings" className="btn-secondary">
              Update your card
            </Link>
            {payment.transaction && (
              <button type="button" className="btn-primary" disabled={isRetrying} onClick={() => void retry(payment.transaction)}>
                {isRetrying ? 'Retrying…' : 'Retry payment'}
              </button>
            )}
          </div>
        </div>
      )}
      {imminent && <Alert tone="info">{imminent}</Alert>}
      {!campaign.editable && !finished && <p className="text-sm text-slate-600">{notEditableReason(campaign.start_date)}</p>}

      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Fact label="Type">{campaignType(campaign)}</Fact>
        <Fact label="Frequency">{frequencyLabel(campaign.frequency)}</Fact>
        <Fact label="Start date">{formatDisplayDate(campaign.start_date)}</Fact>
        <Fact label="End date">{formatDisplayDate(campaign.end_date)}</Fact>
        <Fact label="Weekly budget">{formatDollars(campaign.weekly_budget)}</Fact>
        <Fact label="Total budget">{formatDollars(campaign.total_budget)}</Fact>
        <ImpressionFacts campaign={campaign} />
      </dl>

      <PacingPanel campaignId={campaign.id} />

      <Section title="Impressions" id="impressions">
        <LineChart label="Estimated against actual impressions" data={impressionsChart(campaign.chart)} />
        {partialReports(campaign.chart).length > 0 && (
          // A partly recorded week is not its whole delivery: say so under the chart.
          <ul aria-label="Weeks still being reported" className="space-y-1 text-sm text-amber-800">
            {partialReports(campaign.chart).map((line) => (
              <li key={line}>{line} so far; the other faces' impressions are added when they come in.</li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Make-goods" id="make-goods">
        <MakeGoodsPanel makeGoods={campaign.make_goods} threshold={campaign.make_good_threshold || 90} />
      </Section>

      <Section title="Locations" id="locations">
        <LocationsPanel locations={campaign.locations ?? []} makeGoods={campaign.make_goods ?? []} onChangeCreative={finished ? undefined : (location) => setCreativeTarget({ kind: 'campaign', location })} />
      </Section>

      <Section title="Proofs" id="proofs">
        <ProofsGallery proofs={campaign.proofs ?? []} campaignId={campaign.id} />
      </Section>

      <Section title="Weeks" id="weeks">
        <WeekTable campaignId={campaign.id} makeGoodThreshold={campaign.make_good_threshold || 90} onChangeCreative={finished ? undefined : (week) => setCreativeTarget({ kind: 'week', week })} />
      </Section>

      <Confirm
        open={confirming !== null}
        title={confirming ? ACTION_CONFIRMS[confirming].title : ''}
        message={confirming ? ACTION_CONFIRMS[confirming].message : ''}
        confirmText={confirming ? ACTION_CONFIRMS[confirming].button : undefined}
        tone={confirming ? ACTION_CONFIRMS[confirming].tone : 'primary'}
        busy={pausing.isLoading || resuming.isLoading || stopping.isLoading}
        onConfirm={() => void runAction()}
        onCancel={() => setConfirming(null)}
      />
      <DeleteCampaignModal open={deleting} campaignName={campaign.name} busy={removing.isLoading} onCancel={() => setDeleting(false)} onDelete={(r, f) => void runDelete(r, f)} />
      <CreativeSelectorModal
        open={creativeTarget !== null}
        title={creativeTitle}
        onClose={() => setCreativeTarget(null)}
        onSelect={(creative) => creativeTarget && setPendingCreative({ target: creativeTarget, creative })}
      />
      <Confirm
        open={pendingCreative !== null}
        title="Confirm update creative"
        message={pendingCreative ? `Do you want to show “${pendingCreative.creative.name}” for ${targetName(pendingCreative.target)}?` : ''}
        confirmText="Update creative"
        busy={applyingCreative}
        onConfirm={() => void onCreative()}
        onCancel={() => setPendingCreative(null)}
      />
    </div>
  )
}

/** Where a creative change applies, in words: one face in one week, one face, or every face. */
function targetName(target: CreativeTarget): string {
  if (target.kind === 'week') return `${target.week.product.location_name}, ${weekRange(target.week)}`
  return target.location ? `${target.location.location_name}, ${target.location.face}` : 'every location'
}

function Fact({ label, children, note }: { label: string; children: ReactNode; note?: string }) {
  return (
    <div className="card px-4 py-3">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 font-semibold text-slate-900 tabular-nums">{children}</dd>
      {note && <dd className="mt-0.5 text-xs text-slate-600">{note}</dd>}
    </div>
  )
}

/**
 * Like with like: the header compared one week's estimate with the whole delivery so
 * far. Both figures now cover the same weeks, those with delivery recorded; the weekly estimate is
 * named as such.
 */
function ImpressionFacts({ campaign }: { campaign: { impression_count: number; chart?: ChartSeries } }) {
  const toDate = impressionsToDate(campaign.chart)
  const weekly = `${formatCount(campaign.impression_count)} a week`
  if (toDate.points === 0) {
    return (
      <>
        <Fact label="Estimated impressions" note="No delivery recorded yet">
          {weekly}
        </Fact>
        <Fact label="Actual impressions" note="No delivery recorded yet">
          —
        </Fact>
      </>
    )
  }
  const span = toDate.points === 1 ? `the ${pointName(campaign.chart)} recorded` : `the ${toDate.points} ${pointName(campaign.chart)}s recorded`
  return (
    <>
      <Fact label="Estimated impressions" note={`Over ${span} (${weekly})`}>
        {formatCount(toDate.estimated)}
      </Fact>
      <Fact label="Actual impressions" note={`Over ${span}`}>
        {formatCount(toDate.actual)}
      </Fact>
    </>
  )
}

/** The chart's points are weeks, or days for a one-week campaign (A §9). */
function pointName(chart: ChartSeries | undefined): string {
  return chart?.labels[0]?.startsWith('Day') ? 'day' : 'week'
}

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`section-${id}`} className="card space-y-4 p-4 sm:p-6">
      <h2 id={`section-${id}`} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  )
}
