import { useState } from 'react'
import { Link } from 'react-router'
import { CompanyCertified } from '../../../platform/api-types/identity'
import type { Profile } from '../../../platform/api-types/partners'

const DISMISSED = 'marquee.certification-prompt.dismissed'

/**
 * B §4: a certified company that does not earn the certification bonus, because none of its users
 * holds a certificate (DESIGN §1.11), is prompted to take the exam, unless the user chose to
 * continue without it. It reads the hub's profile, as the header badge and the rate do, so a
 * "Certified" badge never stands beside "not certified yet".
 */
export function needsCertificationPrompt(profile: Pick<Profile, 'type' | 'certification_bonus'> | null | undefined, dismissed: boolean): boolean {
  return !!profile && profile.type === CompanyCertified && !profile.certification_bonus && !dismissed
}

/** B §4: continue without the certification bonus, or take the exam; the choice lasts the browser session. */
export default function CertificationPrompt({ profile }: { profile: Profile | null | undefined }) {
  const [dismissed, setDismissed] = useState(() => typeof sessionStorage !== 'undefined' && sessionStorage.getItem(DISMISSED) === '1')
  if (!needsCertificationPrompt(profile, dismissed)) return null
  const onContinue = () => {
    sessionStorage.setItem(DISMISSED, '1')
    setDismissed(true)
  }
  return (
    <section aria-labelledby="certification-prompt-heading" className="rounded-xl border border-amber-200 bg-amber-50 p-4 sm:p-5">
      <h2 id="certification-prompt-heading" className="font-semibold text-amber-950">
        Your company is not certified yet
      </h2>
      <p className="mt-1 text-sm text-amber-900">
        You earn the ambassador rate, {profile!.ambassador_rate_percent}%. Once one of your company's users passes the certification exam, you earn{' '}
        {profile!.certified_rate_percent}% (the certification bonus), and your company receives a one-time promo code. You can also continue without the certification bonus.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Link to="/admin/special-users/exam" className="btn-primary">
          Take the exam
        </Link>
        <button type="button" className="btn-secondary" onClick={onContinue}>
          Continue without the certification bonus
        </button>
      </div>
    </section>
  )
}
