import { useState, type ReactNode } from 'react'
import { useSelector } from 'react-redux'
import type { User } from '../../../platform/api-types/identity'
import { formatDisplayDate } from '../../../platform/dates'
import { isAdmin, isAmbassador, isCertified, isSuperAdmin, selectUser } from '../../../platform/session'
import Tabs from '../../../platform/Tabs'
import ChangePasswordModal from '../components/ChangePasswordModal'

function roleName(user: User): string {
  if (isSuperAdmin(user)) return 'Super admin'
  if (isAdmin(user)) return 'Admin'
  return 'Advertiser'
}

function companyKind(user: User): string {
  if (isAmbassador(user)) return 'Ambassador'
  if (isCertified(user)) return 'Certified'
  return 'Standard'
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{term}</dt>
      <dd className="text-slate-900 sm:col-span-2">{children || <span className="text-slate-400">Not given</span>}</dd>
    </div>
  )
}

/** A §2 /profile: tabs with the user's details and the password. */
export default function Profile() {
  const user = useSelector(selectUser)
  const [tab, setTab] = useState('account')
  const [changing, setChanging] = useState(false)
  if (!user) return null

  const fullName = `${user.local.first_name} ${user.local.last_name}`.trim()
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Profile</h1>
        <p className="mt-1 text-slate-600">Your account and how you sign in.</p>
      </div>
      <div className="card px-5 pb-6 sm:px-6">
        <Tabs
          label="Profile"
          selected={tab}
          onSelect={setTab}
          tabs={[
            {
              id: 'account',
              label: 'Account',
              content: (
                <dl className="divide-y divide-slate-100">
                  <Row term="Name">{fullName}</Row>
                  <Row term="Email">{user.local.email}</Row>
                  <Row term="Phone">{user.local.phone}</Row>
                  <Row term="Company">{user.company.name}</Row>
                  <Row term="Company type">{companyKind(user)}</Row>
                  <Row term="Role">{roleName(user)}</Row>
                  <Row term="Member since">{formatDisplayDate(user.created_at)}</Row>
                  {user.last_login && <Row term="Last login">{formatDisplayDate(user.last_login)}</Row>}
                </dl>
              ),
            },
            {
              id: 'security',
              label: 'Password',
              content: (
                <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
                  <div>
                    <h2 className="font-semibold text-slate-900">Password</h2>
                    <p className="mt-1 text-sm text-slate-600">Use at least 12 characters, and a password you do not use anywhere else.</p>
                  </div>
                  <button type="button" className="btn-primary" onClick={() => setChanging(true)}>
                    Change password
                  </button>
                </div>
              ),
            },
          ]}
        />
      </div>
      <ChangePasswordModal open={changing} onClose={() => setChanging(false)} />
    </div>
  )
}
