import { useState } from 'react'
import { useSelector } from 'react-redux'
import { Link } from 'react-router'
import { CompanyCertified } from '../../../platform/api-types/identity'
import { selectUser } from '../../../platform/session'

const DISMISSED = 'marquee.certification-prompt.dismissed'

/** B §4: an uncertified user of a certified company, who has not chosen to continue without it. */
export function needsCertificationPrompt(user: { certified: boolean; company?: { type: string } | null } | null, dismissed: boolean): boolean {
  return !!user && user.company?.type === CompanyCertified && !user.certified && !dismissed
}

/**
 * B §4: uncertified users (of a certified company) see a prompt: continue without the
 * certification bonus, or take the exam. The choice to continue lasts for the browser session.
 */
export default function CertificationPrompt() {
  const user = useSelector(selectUser)
  const [dismissed, setDismissed] = useState(() => typeof sessionStorage !== 'undefined' && sessionStorage.getItem(DISMISSED) === '1')
  if (!needsCertificationPrompt(user, dismissed)) return null
  const onContinue = () => {
    sessionStorage.setItem(DISMISSED, '1')
    setDismissed(true)
  }
  return (
    <section aria-labelledby="certification-prompt-heading" className="rounded-xl border border-amber-200 bg-amber-50 p-4 sm:p-5">
      <h2 id="certification-prompt-heading" className="font-semibold text-amber-950">
        You are not certified yet
      </h2>
      <p className="mt-1 text-sm text-amber-900">
        Pass the certification exam to become a certified partner: you get a certificate and a promo code for your company. You can also continue without the certification bonus.
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
