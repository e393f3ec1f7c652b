import { useMemo, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import { MsgInvited, type LinkedCompany } from '../../../platform/api-types/partners'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage, isApiError } from '../../../platform/http'
import EmailInput from '../../../platform/inputs/EmailInput'
import TextInput from '../../../platform/inputs/TextInput'
import Modal from '../../../platform/Modal'
import { formatDollars } from '../../../platform/money'
import HubProfileForm from '../shared/HubProfileForm'
import { useHubQuery } from '../shared/hubApi'
import { useInviteClientMutation, useLinkedCompaniesQuery, useResendInviteMutation } from '../api'
import { inviteErrors, inviteStatusLabel, type InviteForm } from '../rules'
import { EDIT_PARTNER_PROFILE, PARTNER_PROFILE } from '../shared/names'

const STATUS_STYLE: Record<string, string> = {
  invited: 'bg-sky-100 text-sky-800',
  active: 'bg-emerald-100 text-emerald-800',
  expired: 'bg-slate-200 text-slate-700',
}

const EMPTY: InviteForm = { full_name: '', email: '', company: '' }

/** The invite-client modal (B §2, B §5, B §8): full name of two words, an email, a company name. */
function InviteClientModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<InviteForm>(EMPTY)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [invite, { isLoading }] = useInviteClientMutation()
  const dispatch = useDispatch()

  const close = () => {
    setForm(EMPTY)
    setErrors({})
    setFailure(null)
    onClose()
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const found = inviteErrors(form)
    setErrors(found)
    setFailure(null)
    if (Object.keys(found).length > 0) return
    try {
      const answer = await invite({ full_name: form.full_name.trim(), email: form.email.trim(), company: form.company.trim() }).unwrap()
      dispatch(flashShown(answer.message || MsgInvited, 'success'))
      close()
    } catch (error) {
      // B §8: the server's message.
      setFailure(errorMessage(error))
      if (isApiError(error)) setErrors(error.errors)
    }
  }

  return (
    <Modal
      open={open}
      title="Invite a client"
      description="Your client receives an email with a link to set up their account. Their company is linked to you, and you earn a bonus on what it spends."
      onClose={close}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" form="invite-client-form" className="btn-primary" disabled={isLoading}>
            {isLoading ? 'Inviting…' : 'Send invitation'}
          </button>
        </>
      }
    >
      <form id="invite-client-form" noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert>{failure}</Alert>}
        <TextInput id="invite-full-name" label="Full name" autoComplete="off" value={form.full_name} onChange={(full_name) => setForm({ ...form, full_name })} error={errors.full_name} hint="First and last name" required />
        <EmailInput id="invite-email" label="Email" autoComplete="off" value={form.email} onChange={(email) => setForm({ ...form, email })} error={errors.email} required />
        <TextInput id="invite-company" label="Company name" value={form.company} onChange={(company) => setForm({ ...form, company })} error={errors.company} maxLength={100} hint="Their full name when left empty" optional />
      </form>
    </Modal>
  )
}

/** The ambassador's partner details (PUT /users/ambassador). */
function PartnerDetailsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const hub = useHubQuery(undefined, { skip: !open })
  return (
    <Modal
      open={open}
      title={PARTNER_PROFILE}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Close
          </button>
          <button type="submit" form="ambassador-details-form" className="btn-primary">
            Save details
          </button>
        </>
      }
    >
      {hub.isError && <Alert>{errorMessage(hub.error)}</Alert>}
      {hub.data && <HubProfileForm formId="ambassador-details-form" via="ambassador" profile={hub.data.profile} onSaved={() => undefined} />}
    </Modal>
  )
}

/**
 * /invite (B §2 "Partner program"): the ambassador's invited clients with their status (invited,
 * active, link expired), resending an invitation, the invite-client modal, and the ambassador's own
 * partner details.
 */
export default function Invite() {
  const list = useLinkedCompaniesQuery()
  const [resend] = useResendInviteMutation()
  const [sending, setSending] = useState<string | null>(null)
  const [modal, setModal] = useState<'invite' | 'details' | null>(null)
  const dispatch = useDispatch()
  const rows = useMemo(() => list.data ?? [], [list.data])

  const columns = useMemo<Columns<LinkedCompany>>(() => {
    // B §8: resend shows the server's message as success or danger.
    const onResend = async (client: LinkedCompany) => {
      setSending(client.id)
      try {
        const answer = await resend(client.id).unwrap()
        dispatch(flashShown(answer.message, 'success'))
      } catch (error) {
        dispatch(flashShown(errorMessage(error), 'danger'))
      } finally {
        setSending(null)
      }
    }
    return [
      { id: 'full_name', accessorKey: 'full_name', header: 'Client', cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>() || '—'}</span> },
      { id: 'company_name', accessorKey: 'company_name', header: 'Company' },
      { id: 'email', accessorKey: 'email', header: 'Email' },
      {
        id: 'status',
        accessorKey: 'status',
        header: 'Status',
        cell: (c) => <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[c.getValue<string>()] ?? 'bg-slate-100'}`}>{inviteStatusLabel(c.getValue<string>())}</span>,
      },
      { id: 'expiration', header: 'Linked until', accessorFn: (l) => l.linked.expiration, cell: (c) => <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> },
      { id: 'bonus', accessorKey: 'bonus', header: 'Bonus', cell: (c) => <span className="tabular-nums">{formatDollars(c.getValue<number>())}</span> },
      {
        id: 'actions',
        header: 'Invitation',
        enableSorting: false,
        cell: (c) =>
          c.row.original.status === 'invited' && c.row.original.source === 'invite' ? (
            <button type="button" className="btn-secondary px-3 py-1 text-xs" disabled={sending === c.row.original.id} onClick={() => void onResend(c.row.original)}>
              {sending === c.row.original.id ? 'Sending…' : <>Resend<span className="sr-only"> the invitation to {c.row.original.email}</span></>}
            </button>
          ) : (
            <span className="text-slate-400">—</span>
          ),
      },
    ]
  }, [dispatch, resend, sending])

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Invite clients</h1>
          <p className="mt-1 text-slate-600">The clients you invited and those linked through your referral code. A link lasts 12 months; you earn a bonus on what they spend while it is active.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary" onClick={() => setModal('details')}>
            {EDIT_PARTNER_PROFILE}
          </button>
          <button type="button" className="btn-primary" onClick={() => setModal('invite')}>
            Invite a client
          </button>
        </div>
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataGrid
        label="Invited clients"
        columns={columns}
        data={rows}
        getRowId={(l) => l.id}
        pageSizeOptions={[10, 20, 50, 0]}
        defaultPageSize={10}
        loading={list.isFetching}
        emptyState="You have not invited anyone yet. Invite your first client to start earning bonuses."
      />
      <InviteClientModal open={modal === 'invite'} onClose={() => setModal(null)} />
      <PartnerDetailsModal open={modal === 'details'} onClose={() => setModal(null)} />
    </div>
  )
}
