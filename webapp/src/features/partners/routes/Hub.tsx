import { useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import { CompanyCertified } from '../../../platform/api-types/identity'
import type { Profile } from '../../../platform/api-types/partners'
import { formatDisplayDate } from '../../../platform/dates'
import { errorMessage } from '../../../platform/http'
import Modal from '../../../platform/Modal'
import { formatDollars } from '../../../platform/money'
import HubProfileForm from '../shared/HubProfileForm'
import { useHubQuery } from '../shared/hubApi'
import Spinner from '../../../platform/Spinner'
import { useStatsQuery } from '../api'
import CertificationPrompt from '../components/CertificationPrompt'
import EarningsChart from '../components/EarningsChart'
import YearSelect from '../components/YearSelect'
import { chartSeries } from '../rules'
import { EDIT_PARTNER_PROFILE, PARTNER_PROFILE } from '../shared/names'

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-0.5 break-words text-slate-900">{children}</dd>
    </div>
  )
}

function ProfileCard({ profile, onEdit }: { profile: Profile; onEdit: () => void }) {
  const name = `${profile.first_name} ${profile.last_name}`.trim()
  return (
    <section aria-labelledby="hub-profile-heading" className="card space-y-4 p-4 sm:p-6">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="hub-profile-heading" className="text-lg font-semibold text-slate-900">
            {profile.company_name}
          </h2>
          <p className="text-sm text-slate-600 capitalize">{profile.type} partner</p>
        </div>
        <button type="button" className="btn-secondary self-start" onClick={onEdit}>
          {EDIT_PARTNER_PROFILE}
        </button>
      </div>
      <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <Detail term="Name">{name || '—'}</Detail>
        <Detail term="Email">{profile.email}</Detail>
        <Detail term="Phone">{profile.phone || '—'}</Detail>
        <Detail term="Website">
          {profile.website ? (
            <a href={profile.website} className="text-brand-700 underline" rel="noopener noreferrer" target="_blank">
              {profile.website}
            </a>
          ) : (
            '—'
          )}
        </Detail>
        <Detail term="Referral code">{profile.promo_code ? <span className="font-mono">{profile.promo_code}</span> : '—'}</Detail>
        <Detail term="Bonus rate">
          <span data-testid="hub-rate">
            <strong className="tabular-nums">{profile.rate_percent}%</strong>{' '}
            {profile.certification_bonus ? (
              <span className="text-slate-600">with the certification bonus: a user of your company holds a certificate</span>
            ) : (
              <span className="text-slate-600">
                the ambassador rate{profile.type === CompanyCertified ? `; ${profile.certified_rate_percent}% once a user of your company is certified` : ''}
              </span>
            )}
          </span>
        </Detail>
        <Detail term="Linked companies">
          <span data-testid="hub-linked">{profile.linked}</span>
        </Detail>
        <Detail term="Total bonus">
          <span className="tabular-nums" data-testid="hub-total-bonus">
            {formatDollars(profile.total_bonus)}
          </span>
        </Detail>
        <Detail term="Your certificate">
          {profile.certificate ? (
            <span>
              {profile.certificate.number}, {formatDisplayDate(profile.certificate.date)}
            </span>
          ) : (
            'Not certified'
          )}
        </Detail>
      </dl>
      {profile.about && (
        <div className="text-sm">
          <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">About</h3>
          <p className="mt-0.5 whitespace-pre-line text-slate-800">{profile.about}</p>
        </div>
      )}
    </section>
  )
}

/**
 * /admin/hub (B §2 "Partner program", both partner kinds): the partner's profile, the 12-month chart
 * of Earnings (bars) and Campaigns (line) with a year selector from the current year down to 2018,
 * and the update-profile modal.
 */
export default function Hub() {
  const [year, setYear] = useState(() => new Date().getFullYear())
  const [editing, setEditing] = useState(false)
  const hub = useHubQuery()
  const stats = useStatsQuery(year)
  const { earnings, campaigns } = chartSeries(stats.data ?? [])
  const billed = (stats.data ?? []).reduce((t, s) => t + s.totalBilled, 0)
  const earned = earnings.reduce((t, v) => t + v, 0)
  const profile = hub.data?.profile

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Partner hub</h1>
          <p className="mt-1 text-slate-600">Your partner profile, and what your linked clients' campaigns earned you month by month.</p>
        </div>
        <Link to="/campaings-linked" className="btn-secondary self-start sm:self-auto">
          Linked campaigns
        </Link>
      </div>
      <CertificationPrompt profile={profile} />
      {hub.isError && <Alert>{errorMessage(hub.error)}</Alert>}
      {hub.isLoading && <Spinner label="Loading your hub" />}
      {profile?.exam_promo && (
        <section aria-labelledby="hub-reward-heading" className="rounded-xl border border-emerald-200 bg-emerald-50 p-4 sm:p-5" data-testid="hub-exam-promo">
          <h2 id="hub-reward-heading" className="font-semibold text-emerald-950">
            Your certification reward
          </h2>
          <p className="mt-1 text-sm text-emerald-900">
            Promo code <strong className="font-mono break-all">{profile.exam_promo.code}</strong>, worth {formatDollars(profile.exam_promo.value)} of campaign credit for your
            company. Redeem it when you book; it works once, and only for your company.
          </p>
        </section>
      )}
      {profile && <ProfileCard profile={profile} onEdit={() => setEditing(true)} />}
      <section aria-labelledby="hub-chart-heading" className="card space-y-4 p-4 sm:p-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h2 id="hub-chart-heading" className="text-lg font-semibold text-slate-900">
              Earnings and campaigns
            </h2>
            <p className="text-sm text-slate-600">
              {year}: billed <strong className="tabular-nums text-slate-900">{formatDollars(billed)}</strong>, earned{' '}
              <strong className="tabular-nums text-slate-900" data-testid="hub-year-earnings">
                {formatDollars(earned)}
              </strong>
            </p>
          </div>
          <YearSelect id="hub-year" value={year} onChange={setYear} />
        </div>
        {stats.isError && <Alert>{errorMessage(stats.error)}</Alert>}
        <EarningsChart year={year} earnings={earnings} campaigns={campaigns} />
      </section>
      <Modal
        open={editing}
        title={PARTNER_PROFILE}
        onClose={() => setEditing(false)}
        footer={
          <>
            <button type="button" className="btn-secondary" onClick={() => setEditing(false)}>
              Close
            </button>
            <button type="submit" form="hub-profile-form" className="btn-primary">
              Save profile
            </button>
          </>
        }
      >
        <HubProfileForm formId="hub-profile-form" profile={profile} onSaved={() => undefined} />
      </Modal>
    </div>
  )
}
