import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import Alert from '../../../platform/Alert'
import { MaxNameLen, MsgCampaignRequired, MsgCompanyRequired, MsgPDFRequired, type Report } from '../../../platform/api-types/reports'
import { errorMessage, isApiError } from '../../../platform/http'
import Uploader from '../../../platform/uploader/Uploader'
import type { UploadedFile } from '../../../platform/uploader/sendFiles'
import { useCreateReportMutation, useReportCampaignsQuery } from '../api'
import CompanyPicker from '../components/CompanyPicker'
import MailerDialog from '../components/MailerDialog'

type Fields = Partial<Record<'company' | 'campaign_id' | 'path', string>>

/**
 * B §2 /admin/reports/new: pick a company and one of its campaigns, upload the PDF (POST
 * /upload_report: one real PDF of at most 10,000 KB, B §5), save; then the 'new report mailer'
 * offers to email the advertiser.
 */
export default function AdminNewReport() {
  const navigate = useNavigate()
  const [company, setCompany] = useState('')
  const [campaignId, setCampaignId] = useState('')
  const [file, setFile] = useState<UploadedFile | null>(null)
  // A save while the PDF is still on its way would say "PDF report is required." of a file the
  // admin has just chosen: the save waits for the upload instead.
  const [uploading, setUploading] = useState(false)
  const [name, setName] = useState('')
  const [fields, setFields] = useState<Fields>({})
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState<Report | null>(null)
  const campaigns = useReportCampaignsQuery(company, { skip: !company })
  const [create, creating] = useCreateReportMutation()

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (uploading) return
    setError(null)
    const missing: Fields = {}
    if (!company) missing.company = MsgCompanyRequired
    if (!campaignId) missing.campaign_id = MsgCampaignRequired
    if (!file) missing.path = MsgPDFRequired
    setFields(missing)
    if (Object.keys(missing).length > 0) {
      // B §5: the first invalid input gets the focus (after the render that marks it).
      setTimeout(() => document.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus())
      return
    }
    try {
      const answer = await create({ company, campaign_id: campaignId, path: file!.path, filename: file!.originalname, name: name.trim(), week_ids: [] }).unwrap()
      setSaved(answer.report ?? null)
    } catch (err) {
      if (isApiError(err) && err.errors) setFields(err.errors as Fields)
      setError(errorMessage(err))
    }
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">New report</h1>
        <p className="mt-1 text-slate-600">Upload a PDF report for a company's campaign. The advertiser sees it in their reports.</p>
      </div>
      <form className="card space-y-6 p-4 sm:p-6" onSubmit={submit} noValidate>
        <CompanyPicker
          value={company}
          onChange={(id) => {
            setCompany(id)
            setCampaignId('')
          }}
          error={fields.company}
          disabled={creating.isLoading || saved !== null}
        />
        <div className="space-y-1.5">
          <label htmlFor="admin-new-report-campaign" className="block text-sm font-medium text-slate-700">
            Campaign
          </label>
          <select
            id="admin-new-report-campaign"
            className="field-input"
            value={campaignId}
            onChange={(e) => setCampaignId(e.target.value)}
            disabled={!company || creating.isLoading || saved !== null}
            aria-invalid={fields.campaign_id ? true : undefined}
            aria-describedby={fields.campaign_id ? 'admin-new-report-campaign-error' : undefined}
          >
            <option value="">{company ? 'Choose a campaign' : 'Choose a company first'}</option>
            {(campaigns.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          {fields.campaign_id && (
            <p id="admin-new-report-campaign-error" className="text-sm text-red-700">
              {fields.campaign_id}
            </p>
          )}
        </div>
        <Uploader
          kind="report"
          url="/upload_report"
          label="PDF report"
          onStart={() => {
            setFile(null)
            setUploading(true)
          }}
          onSettled={() => setUploading(false)}
          onUploaded={(files) => {
            setFile(files[0] ?? null)
            setFields((f) => ({ ...f, path: undefined }))
          }}
          error={fields.path}
          disabled={creating.isLoading || saved !== null}
        />
        <div className="space-y-1.5">
          <label htmlFor="admin-new-report-name" className="block text-sm font-medium text-slate-700">
            Report name <span className="font-normal text-slate-500">(optional: the file's name)</span>
          </label>
          <input id="admin-new-report-name" className="field-input" maxLength={MaxNameLen} value={name} onChange={(e) => setName(e.target.value)} disabled={saved !== null} />
        </div>
        {error && <Alert>{error}</Alert>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to="/admin/reports" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={uploading || creating.isLoading || saved !== null}>
            {uploading ? 'Uploading…' : creating.isLoading ? 'Saving…' : 'Save report'}
          </button>
        </div>
      </form>
      <MailerDialog
        reportId={saved?.id ?? null}
        campaignName={saved?.campaign_name ?? ''}
        onClose={() => saved && navigate(`/admin/reports/${encodeURIComponent(saved.id)}`)}
      />
    </div>
  )
}
