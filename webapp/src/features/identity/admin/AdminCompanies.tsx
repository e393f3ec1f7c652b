import { useMemo, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { useNavigate, useSearchParams } from 'react-router'
import Alert from '../../../platform/Alert'
import RemoveActivePromo from '../../billing/shared/RemoveActivePromo'
import CreativeUploadForm from '../../creatives/shared/CreativeUploadForm'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { flashesCleared, flashShown } from '../../../platform/flash/flash'
import { errorMessage, isApiError } from '../../../platform/http'
import EmailInput from '../../../platform/inputs/EmailInput'
import { isEmail } from '../../../platform/inputs/emailRules'
import Field from '../../../platform/inputs/Field'
import TextInput from '../../../platform/inputs/TextInput'
import Modal from '../../../platform/Modal'
import { formatDollars } from '../../../platform/money'
import { signedIn } from '../../../platform/session'
import { useGridSearch } from '../../../platform/useGridSearch'
import type { UpdateCompanyRequest } from '../../../platform/api-types/identity'
import type { AdminCompany } from '../../../platform/api-types/identity'
import { useAdminCompaniesQuery, useAdminUsersQuery, useModerateSignInMutation, useUpdateCompanyMutation } from '../adminApi'
import { ADMIN_PAGE_SIZES, COMPANY_TYPES, MSG_SELECT_COMPANY } from './adminRules'

const money = (c: { getValue: () => unknown }) => <span className="tabular-nums">{formatDollars(Number(c.getValue() ?? 0))}</span>

// Column ids are the server's sort fields (docs/api.md "Identity": GET /api/admin/companies/ sorts by
// name, status, type and createdAt); the counts and billing columns are computed per page.
const columns: Columns<AdminCompany> = [
  { accessorKey: 'name', header: 'Name', cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>()}</span> },
  { accessorKey: 'status', header: 'Status', cell: (c) => <span className="capitalize">{c.getValue<string>()}</span> },
  { accessorKey: 'type', header: 'Type', cell: (c) => <span className="capitalize">{c.getValue<string>() || 'standard'}</span> },
  { accessorKey: 'user_count', header: 'Users', enableSorting: false, cell: (c) => <span className="tabular-nums">{c.getValue<number>()}</span> },
  // B §2: the credit-card-on-file flag, Yes or No.
  { accessorKey: 'cc_onfile', header: 'Card on file', enableSorting: false, cell: (c) => (c.getValue<boolean>() ? 'Yes' : 'No') },
  { accessorKey: 'account_credit', header: 'Account credit', enableSorting: false, cell: money },
  { accessorKey: 'total_spend', header: 'Total spend', enableSorting: false, cell: money },
  { accessorKey: 'createdAt', header: 'Created', cell: (c) => <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> },
]

/** B §2 "authorize a moderator": the admin's browser becomes the user's session. */
function SignInAsModal({ company, onClose }: { company: AdminCompany | null; onClose: () => void }) {
  const [email, setEmail] = useState('')
  const [failure, setFailure] = useState<string | null>(null)
  const [signIn, { isLoading }] = useModerateSignInMutation()
  // The company's users, by the company's id; only active non-admin users can be
  // acted as (DESIGN §1.12), so only they are offered.
  const users = useAdminUsersQuery({ page: 1, page_size: 100, sort: 'email', q: '', company: company?.id ?? '' }, { skip: !company })
  const members = (users.data?.items ?? []).filter((u) => u.local.status === 'active' && !u.local.role.admin)
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const [prefilled, setPrefilled] = useState(false)
  // Another company starts the form over (state adjusted while rendering, not in an effect).
  const [shownFor, setShownFor] = useState(company)
  if (company !== shownFor) {
    setShownFor(company)
    setEmail('')
    setFailure(null)
    setPrefilled(false)
  }
  // The company's first user is offered once; the admin may then type any email.
  const first = members[0]?.local.email
  if (!prefilled && first && company === shownFor) {
    setEmail(first)
    setPrefilled(true)
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!isEmail(email)) {
      setFailure('Please enter the email of a user of this company')
      return
    }
    try {
      const answer = await signIn({ email: email.trim() }).unwrap()
      if (!answer.user) throw new Error('no user')
      // signedIn clears every cached answer, and the admin's toasts go too: nothing of the admin's
      // session shows as the user's.
      dispatch(flashesCleared())
      dispatch(signedIn({ user: answer.user, moderator: answer.moderator ?? null }))
      onClose()
      void navigate('/dashboard', { replace: true })
    } catch (error) {
      setFailure(errorMessage(error))
    }
  }

  return (
    <Modal
      open={company !== null}
      title="Sign in as a user"
      description={company ? `You will see Marquee as this user of ${company.name} sees it, until you return to your own account.` : undefined}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="sign-in-as-form" className="btn-primary" disabled={isLoading}>
            {isLoading ? 'Signing in…' : 'Sign in as this user'}
          </button>
        </>
      }
    >
      <form id="sign-in-as-form" noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert>{failure}</Alert>}
        {members.length > 0 && (
          <Field id="sign-in-as-user" label="User">
            <select id="sign-in-as-user" className="field-input" value={email} onChange={(e) => setEmail(e.target.value)}>
              {members.map((u) => (
                <option key={u.id} value={u.local.email}>
                  {`${u.local.first_name} ${u.local.last_name}`.trim() || u.local.email} ({u.local.email})
                </option>
              ))}
            </select>
          </Field>
        )}
        <EmailInput id="sign-in-as-email" label="User's email" value={email} onChange={setEmail} required autoComplete="off" />
      </form>
    </Modal>
  )
}

/** PUT /api/companies/{id}: name (unique, case-insensitively), type and status. */
function EditCompanyModal({ company, onClose }: { company: AdminCompany | null; onClose: () => void }) {
  const [form, setForm] = useState<Required<UpdateCompanyRequest>>({ name: '', type: 'standard', status: 'active' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [save, { isLoading }] = useUpdateCompanyMutation()
  const dispatch = useDispatch()
  // Another company fills the form with its values (state adjusted while rendering).
  const [shownFor, setShownFor] = useState<AdminCompany | null>(null)
  if (company !== shownFor) {
    setShownFor(company)
    if (company) setForm({ name: company.name, type: company.type || 'standard', status: company.status || 'active' })
    setErrors({})
    setFailure(null)
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!company) return
    if (form.name.trim() === '') {
      setErrors({ name: 'Please enter the company name' })
      return
    }
    try {
      const answer = await save({ id: company.id, body: { ...form, name: form.name.trim() } }).unwrap()
      dispatch(flashShown(answer.message || 'The company has been updated.', 'success'))
      onClose()
    } catch (error) {
      setFailure(`Sorry! ${errorMessage(error)}`)
      if (isApiError(error)) setErrors(error.errors)
    }
  }

  return (
    <Modal
      open={company !== null}
      title="Edit company"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="edit-company-form" className="btn-primary" disabled={isLoading}>
            {isLoading ? 'Saving…' : 'Save company'}
          </button>
        </>
      }
    >
      <form id="edit-company-form" noValidate onSubmit={onSubmit} className="space-y-4">
        {failure && <Alert>{failure}</Alert>}
        <TextInput id="company-name" label="Company name" value={form.name} onChange={(name) => setForm({ ...form, name })} error={errors.name} maxLength={100} required />
        <Field id="company-type" label="Type" error={errors.type}>
          <select id="company-type" className="field-input" value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
            {COMPANY_TYPES.map((t) => (
              <option key={t} value={t}>
                {t[0]!.toUpperCase() + t.slice(1)}
              </option>
            ))}
          </select>
        </Field>
        <Field id="company-status" label="Status" error={errors.status}>
          <select id="company-status" className="field-input" value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value })}>
            <option value="active">Active</option>
            <option value="disabled">Disabled</option>
          </select>
        </Field>
      </form>
    </Modal>
  )
}

/**
 * /admin/companies (B §2): every company, one selected at a time. The actions need a selection
 * ('You first must select a Company', B §5): sign in as one of its users, upload a creative for it,
 * remove its active promo, edit it.
 */
export default function AdminCompanies() {
  const { grid, setGrid, text, setText, q } = useGridSearch({ page: 1, pageSize: ADMIN_PAGE_SIZES[0]!, sort: '-createdAt' }, useSearchParams()[0].get('q') ?? '')
  const companies = useAdminCompaniesQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort, q })
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [modal, setModal] = useState<'signin' | 'creative' | 'edit' | null>(null)
  const dispatch = useDispatch()

  const rows = useMemo(() => companies.data?.items ?? [], [companies.data])
  const selected = rows.find((c) => c.id === selectedId) ?? null
  const needSelection = () => dispatch(flashShown(MSG_SELECT_COMPANY, 'danger', 5000))
  const open = (which: 'signin' | 'creative' | 'edit') => (selected ? setModal(which) : needSelection())
  const close = () => setModal(null)

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Companies</h1>
        <p className="mt-1 text-slate-600">Every advertiser and partner company. Select one to act for it.</p>
      </div>
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
        <div className="w-full max-w-sm space-y-1.5">
          <label htmlFor="admin-company-search" className="block text-sm font-medium text-slate-700">
            Search companies
          </label>
          <input id="admin-company-search" type="search" className="field-input" placeholder="Company name" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Selected company">
          <button type="button" className="btn-primary" onClick={() => open('signin')}>
            Sign in as a user
          </button>
          <button type="button" className="btn-secondary" onClick={() => open('creative')}>
            Upload creative
          </button>
          <RemoveActivePromo companyId={selected?.id ?? null} companyName={selected?.name} onNoCompany={needSelection} />
          <button type="button" className="btn-secondary" onClick={() => open('edit')}>
            Edit company
          </button>
        </div>
      </div>
      {companies.isError && <Alert>{errorMessage(companies.error)}</Alert>}
      <DataGrid
        label="Companies"
        columns={columns}
        data={rows}
        getRowId={(c) => c.id}
        pageSizeOptions={ADMIN_PAGE_SIZES}
        selection="single"
        selectedIds={selectedId ? [selectedId] : []}
        onSelectionChange={(ids) => setSelectedId(ids[0] ?? null)}
        loading={companies.isFetching}
        emptyState={q ? `No company matches “${q}”.` : 'No companies yet.'}
        server={{ total: companies.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
      <SignInAsModal company={modal === 'signin' ? selected : null} onClose={close} />
      <EditCompanyModal company={modal === 'edit' ? selected : null} onClose={close} />
      <Modal
        open={modal === 'creative' && selected !== null}
        title={`Upload a creative for ${selected?.name ?? ''}`}
        onClose={close}
        size="lg"
        footer={
          <>
            <button type="button" className="btn-secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" form="company-creative-form" className="btn-primary">
              Save creative
            </button>
          </>
        }
      >
        {selected && <CreativeUploadForm formId="company-creative-form" company={selected.id} onSaved={close} />}
      </Modal>
    </div>
  )
}
