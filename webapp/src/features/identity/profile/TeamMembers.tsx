import type { ColumnDef } from '@tanstack/react-table'
import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import type { User } from '../../../platform/api-types/identity'
import DataGrid from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import Field, { describedBy } from '../../../platform/inputs/Field'
import { useInviteTeamMembersMutation, useTeamMembersQuery } from '../accountApi'
import type { Invitee } from '../../../platform/api-types/identity'
import UserStatus from '../components/UserStatus'
import { hasInviteErrors, inviteErrors, MAX_INVITEES, MSG_INVITES_SENT, serverInviteErrors, type InviteeErrors } from './inviteRules'

const fullName = (u: User) => `${u.local.first_name ?? ''} ${u.local.last_name ?? ''}`.trim()

const columns: ColumnDef<User, any>[] = [
  { id: 'name', header: 'Name', accessorFn: fullName, cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>() || '—'}</span> },
  { id: 'email', header: 'Email', accessorFn: (u) => u.local.email },
  { id: 'status', header: 'Status', accessorFn: (u) => u.local.status, cell: (c) => <UserStatus status={c.getValue<string>()} /> },
  { id: 'last_login', header: 'Last login', accessorFn: (u) => u.last_login ?? '', cell: (c) => (c.getValue<string>() ? formatDisplayDate(c.getValue<string>()) : 'Never') },
]

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

/** B §2 /profile team members: the company's users (name, email, status, last login) and the invite form. */
export default function TeamMembers() {
  const members = useTeamMembersQuery()
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
      </section>
      <InviteForm />
    </div>
  )
}
