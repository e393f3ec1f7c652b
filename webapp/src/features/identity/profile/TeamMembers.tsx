import { useMemo, useState, type FormEvent } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import Confirm from '../../../platform/Confirm'
import { selectUser } from '../../../platform/session'
import type { User } from '../../../platform/api-types/identity'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import Field, { describedBy } from '../../../platform/inputs/Field'
import { useInviteTeamMembersMutation, useRemoveTeamMemberMutation, useResendTeamInviteMutation, useTeamMembersQuery } from '../accountApi'
import type { Invitee } from '../../../platform/api-types/identity'
import UserStatus from '../components/UserStatus'
import { hasInviteErrors, inviteErrors, MAX_INVITEES, MSG_INVITES_SENT, serverInviteErrors, type InviteeErrors } from './inviteRules'

const fullName = (u: User) => `${u.local.first_name ?? ''} ${u.local.last_name ?? ''}`.trim()

const baseColumns: Columns<User> = [
  { id: 'name', header: 'Name', accessorFn: fullName, cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>() || '—'}</span> },
  { id: 'email', header: 'Email', accessorFn: (u) => u.local.email, cell: (c) => <span className="break-all">{c.getValue<string>()}</span> },
  { id: 'status', header: 'Status', accessorFn: (u) => u.local.status, cell: (c) => <UserStatus status={c.getValue<string>()} /> },
  { id: 'last_login', header: 'Last login', accessorFn: (u) => u.last_login ?? '', cell: (c) => (c.getValue<string>() ? formatDisplayDate(c.getValue<string>()) : 'Never') },
]

type Pending = { kind: 'remove' | 'resend'; member: User } | null

const nameOf = (u: User) => fullName(u) || u.local.email

const blank = (): Invitee => ({ name: '', email: '' })

function InviteeRow({ index, invitee, errors, onChange, onRemove }: { index: number; invitee: Invitee; errors: InviteeErrors; onChange: (i: Invitee) => void; onRemove?: () => void }) {
  const nameId = `invitee-${index}-name`
  const emailId = `invitee-${index}-email`
  return (
    <fieldset className="grid gap-3 rounded-xl border border-slate-200 p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start">
      <legend className="sr-only">Team member {index + 1}</legend>
      <Field id={nameId} label={`Name of team member ${index + 1}`} error={errors.name}>
        <input
          id={nameId}
          className="field-input"
          value={invitee.name}
          autoComplete="off"
          placeholder="First and last name"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={describedBy(nameId, undefined, errors.name)}
          onChange={(e) => onChange({ ...invitee, name: e.target.value })}
        />
      </Field>
      <Field id={emailId} label={`Email of team member ${index + 1}`} error={errors.email}>
        <input
          id={emailId}
          type="email"
          inputMode="email"
          spellCheck={false}
          autoComplete="off"
          className="field-input"
          value={invitee.email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy(emailId, undefined, errors.email)}
          onChange={(e) => onChange({ ...invitee, email: e.target.value })}
        />
      </Field>
      {onRemove && (
        <button type="button" className="btn-secondary sm:mt-7" onClick={onRemove} aria-label={`Remove team member ${index + 1}`}>
          Remove
        </button>
      )}
    </fieldset>
  )
}

/**
 * B §5 invite form: several invitees at once, each a name and an email, checked here and again on
 * the server; the server's field errors show beside their inputs.
 */
export function InviteForm() {
  const [invitees, setInvitees] = useState<Invitee[]>([blank()])
  const [errors, setErrors] = useState<InviteeErrors[]>([])
  const [failure, setFailure] = useState<string | null>(null)
  const [invite, { isLoading }] = useInviteTeamMembersMutation()
  const dispatch = useDispatch()
  const { ref, focusInvalid } = useFocusFirstInvalid()
  // A self-registered user has no name yet: ask for it, so an invitation says who sent it (issue
  // 26 item 13; without it the email is worded without a name).
  const me = useSelector(selectUser)
  const nameMissing = !!me && !(me.local.first_name ?? '').trim()

  const update = (index: number, invitee: Invitee) => setInvitees(invitees.map((x, i) => (i === index ? invitee : x)))
  const remove = (index: number) => {
    setInvitees(invitees.filter((_, i) => i !== index))
    setErrors(errors.filter((_, i) => i !== index))
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const found = inviteErrors(invitees)
    setErrors(found)
    if (hasInviteErrors(found)) {
      focusInvalid()
      return
    }
    try {
      const answer = await invite({ new_member: invitees.map((i) => ({ name: i.name.trim(), email: i.email.trim() })) }).unwrap()
      dispatch(flashShown(answer.message || MSG_INVITES_SENT, 'success'))
      setInvitees([blank()])
      setErrors([])
    } catch (error) {
      // B §8: 'Sorry! ' plus the message.
      setFailure(`Sorry! ${errorMessage(error)}`)
      if (isApiError(error)) {
        setErrors(serverInviteErrors(invitees.length, error.errors))
        focusInvalid()
      }
    }
  }

  return (
    <form ref={ref} noValidate onSubmit={onSubmit} aria-labelledby="invite-heading" className="space-y-4">
      <div>
        <h3 id="invite-heading" className="font-semibold text-slate-900">
          Invite team members
        </h3>
        <p className="mt-1 text-sm text-slate-600">Each person gets an email with a link to set a password and join your company.</p>
      </div>
      {nameMissing && (
        <p className="rounded-lg border border-sky-200 bg-sky-50 p-3 text-sm text-sky-900" data-testid="invite-name-missing">
          Your invitations do not say who sent them until you add your name.{' '}
          <Link to="/profile" className="font-medium underline">
            Add your name
          </Link>
        </p>
      )}
      {failure && <Alert>{failure}</Alert>}
      {invitees.map((invitee, index) => (
        <InviteeRow
          key={index}
          index={index}
          invitee={invitee}
          errors={errors[index] ?? {}}
          onChange={(value) => update(index, value)}
          onRemove={invitees.length > 1 ? () => remove(index) : undefined}
        />
      ))}
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-between">
        <button type="button" className="btn-secondary" disabled={invitees.length >= MAX_INVITEES} onClick={() => setInvitees([...invitees, blank()])}>
          Add another person
        </button>
        <button type="submit" className="btn-primary" disabled={isLoading}>
          {isLoading ? 'Sending…' : 'Send invites'}
        </button>
      </div>
    </form>
  )
}

/**
 * B §2 /profile team members: the company's users (name, email, status, last login) and the invite
 * form. The company's owner (its oldest user, listed first) removes members and resends pending
 * invitations, each after a confirmation; the server enforces the same rule.
 */
export default function TeamMembers() {
  const members = useTeamMembersQuery()
  const me = useSelector(selectUser)
  const dispatch = useDispatch()
  const [pending, setPending] = useState<Pending>(null)
  const [remove, removing] = useRemoveTeamMemberMutation()
  const [resend, resending] = useResendTeamInviteMutation()
  const ownerId = members.data?.[0]?.id
  const isOwner = !!me && ownerId === me.id
  const columns = useMemo<Columns<User>>(() => {
    if (!isOwner) return baseColumns
    return [
      ...baseColumns,
      {
        id: 'actions',
        header: 'Actions',
        enableSorting: false,
        cell: (c) => {
          const u = c.row.original
          if (u.id === ownerId || u.local.status === 'disabled') return <span className="text-xs text-slate-500">{u.id === ownerId ? 'Owner' : '—'}</span>
          return (
            <span className="flex flex-wrap gap-2">
              {u.local.status === 'invited' && (
                <button
                  type="button"
                  className="btn-secondary px-3 py-1.5 text-xs"
                  aria-label={`Resend the invitation to ${nameOf(u)}`}
                  onClick={() => setPending({ kind: 'resend', member: u })}
                >
                  Resend
                </button>
              )}
              <button
                type="button"
                className="btn-secondary px-3 py-1.5 text-xs text-rose-700"
                aria-label={`Remove ${nameOf(u)}`}
                onClick={() => setPending({ kind: 'remove', member: u })}
              >
                Remove
              </button>
            </span>
          )
        },
      },
    ]
  }, [isOwner, ownerId])

  const onConfirm = async () => {
    if (!pending) return
    try {
      const answer = pending.kind === 'remove' ? await remove(pending.member.id).unwrap() : await resend(pending.member.id).unwrap()
      dispatch(flashShown(answer.message, 'success'))
    } catch (error) {
      // B §8: a resent invite shows the server's message, as success or danger.
      dispatch(flashShown(errorMessage(error), 'danger'))
    }
    setPending(null)
  }
  const member = pending?.member
  return (
    <div className="space-y-8">
      <section aria-labelledby="team-heading" className="space-y-3">
        <h2 id="team-heading" className="font-semibold text-slate-900">
          Team members
        </h2>
        {members.isError ? (
          <Alert>{errorMessage(members.error)}</Alert>
        ) : (
          <DataGrid
            label="Team members"
            columns={columns}
            data={members.data ?? []}
            getRowId={(u) => u.id}
            pageSizeOptions={[10, 20, 50, 0]}
            loading={members.isFetching}
            emptyState="No team members yet."
          />
        )}
        {!isOwner && members.data && members.data.length > 1 && (
          <p className="text-sm text-slate-600">Only your company's owner ({members.data[0] ? nameOf(members.data[0]) : ''}) can remove team members or resend invitations.</p>
        )}
      </section>
      <Confirm
        open={pending?.kind === 'remove'}
        title="Remove this team member?"
        message={
          member?.local.status === 'invited'
            ? `${member ? nameOf(member) : ''}'s invitation will be cancelled: the link they were sent stops working.`
            : `${member ? nameOf(member) : ''} will be signed out everywhere and can no longer sign in. Their API keys stop working. Their campaigns stay with your company.`
        }
        confirmText="Remove"
        tone="danger"
        busy={removing.isLoading}
        onConfirm={onConfirm}
        onCancel={() => setPending(null)}
      />
      <Confirm
        open={pending?.kind === 'resend'}
        title="Resend the invitation?"
        message={`${member ? nameOf(member) : ''} (${member?.local.email ?? ''}) gets a new link by email; the earlier link stops working.`}
        confirmText="Resend"
        busy={resending.isLoading}
        onConfirm={onConfirm}
        onCancel={() => setPending(null)}
      />
      <InviteForm />
    </div>
  )
}
