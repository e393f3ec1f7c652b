import { useState } from 'react'
import { useSelector } from 'react-redux'
import { useSearchParams } from 'react-router'
import { CardOnFile } from '../../billing/shared/BillingPanel'
import EditHub from '../../partners/shared/EditHub'
import { CompanyAmbassador, CompanyCertified } from '../../../platform/api-types/identity'
import { selectUser } from '../../../platform/session'
import Tabs, { type Tab } from '../../../platform/Tabs'
import ChangePasswordModal from '../components/ChangePasswordModal'
import ProfileForm from '../profile/ProfileForm'
import TeamMembers from '../profile/TeamMembers'
import { PARTNER_PROFILE } from '../../partners/shared/names'

function PasswordTab() {
  const [changing, setChanging] = useState(false)
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
      <div>
        <h2 className="font-semibold text-slate-900">Password</h2>
        <p className="mt-1 text-sm text-slate-600">
          Use at least 12 characters, and a password you do not use anywhere else. Changing it signs you out everywhere else.
        </p>
      </div>
      <button type="button" className="btn-primary" onClick={() => setChanging(true)}>
        Change password
      </button>
      <ChangePasswordModal open={changing} onClose={() => setChanging(false)} />
    </div>
  )
}

/**
 * B §2 /profile, in tabs: the profile (names, phone, addresses), the password, the team members and
 * their invite form, the card, and the edit-hub tab for partner companies. The tab lives in the
 * address (?tab=team), so a link or a reload opens it.
 */
export default function Profile() {
  const user = useSelector(selectUser)
  const [params, setParams] = useSearchParams()
  if (!user) return null

  // B §2: the edit hub is for partner companies only (ambassador or certified).
  const partner = user.company?.type === CompanyAmbassador || user.company?.type === CompanyCertified
  const tabs: Tab[] = [
    { id: 'profile', label: 'Profile', content: <ProfileForm userId={user.id} self={user} /> },
    { id: 'password', label: 'Password', content: <PasswordTab /> },
    { id: 'team', label: 'Team members', content: <TeamMembers /> },
    { id: 'card', label: 'Card', content: <CardOnFile /> },
  ]
  if (partner) tabs.push({ id: 'hub', label: PARTNER_PROFILE, content: <EditHub /> })
  const asked = params.get('tab') ?? 'profile'
  const tab = tabs.some((t) => t.id === asked) ? asked : 'profile'
  const setTab = (id: string) => setParams(id === 'profile' ? {} : { tab: id }, { replace: true })

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Profile</h1>
        <p className="mt-1 text-slate-600">
          {user.local.email} · {user.company?.name}
        </p>
      </div>
      <div className="card px-5 pb-6 sm:px-6">
        <Tabs label="Profile" selected={tab} onSelect={setTab} tabs={tabs} />
      </div>
    </div>
  )
}
