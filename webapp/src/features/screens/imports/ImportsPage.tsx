import { useId, useMemo, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import Spinner from '../../../platform/Spinner'
import { errorMessage } from '../../../platform/http'
import type { ImportReport, Mappings } from '../../../platform/api-types/screens'
import {
  importsChanged,
  useImportMappingsQuery,
  useMappingCampaignsQuery,
  useMappingCreativesQuery,
  useMappingWeeksQuery,
  useScreenImportsQuery,
  useSetImportMappingsMutation,
} from './api'
import { creativeOptions, faceOptions, kindLabel, stillUnmapped } from './importRules'
import { sendImport } from './sendImport'

const when = (value: string) => {
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
}

/** The admin Imports screen (docs/screens-import.md): upload a CMS's proof-of-play export, map its references, read the report. */
export default function ImportsPage() {
  const dispatch = useDispatch()
  const imports = useScreenImportsQuery()
  const mappings = useImportMappingsQuery()
  const [report, setReport] = useState<ImportReport | undefined>()
  const last = report ?? imports.data?.items[0]
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Imports</h1>
        <p className="mt-1 text-slate-600">
          Upload a signage CMS's proof-of-play export (Xibo, or the generic CSV). Rows of mapped displays and media count as plays; the same file
          twice counts once.
        </p>
      </div>
      <UploadForm
        onDone={(r) => {
          setReport(r)
          dispatch(importsChanged())
        }}
      />
      {report && <ReportView report={report} />}
      <MappingEditor key={last?.id ?? 'none'} last={last} mappings={mappings.data} loading={mappings.isLoading} />
      <section aria-labelledby="imports-history" className="card p-5 sm:p-6">
        <h2 id="imports-history" className="text-lg font-semibold text-slate-900">
          Earlier imports
        </h2>
        {imports.isLoading ? (
          <Spinner label="Loading imports" />
        ) : imports.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Sorry! {errorMessage(imports.error)}
          </p>
        ) : imports.data && imports.data.items.length > 0 ? (
          // Focusable, so a keyboard can scroll the table on a phone.
          <div className="mt-3 overflow-x-auto" tabIndex={0} role="region" aria-label="Earlier imports, scrollable">
            <table className="w-full text-left text-sm">
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">File</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Uploaded</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Accepted</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Flagged</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Refused</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Plays</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200">
                {imports.data.items.map((i) => (
                  <tr key={i.id}>
                    <td className="max-w-48 truncate py-2 pr-3">{i.file_name || i.format}</td>
                    <td className="py-2 pr-3 whitespace-nowrap">{when(i.created_at)}</td>
                    <td className="py-2 pr-3">{i.accepted}</td>
                    <td className="py-2 pr-3">{i.flagged}</td>
                    <td className="py-2 pr-3">{i.refused}</td>
                    <td className="py-2 pr-3">{i.plays}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mt-2 text-sm text-slate-600">No import yet.</p>
        )}
      </section>
    </div>
  )
}

function UploadForm({ onDone }: { onDone: (r: ImportReport) => void }) {
  const id = useId()
  const [file, setFile] = useState<File | null>(null)
  const [format, setFormat] = useState<'' | 'xibo' | 'csv'>('')
  const [tz, setTz] = useState('')
  const [progress, setProgress] = useState<number | null>(null)
  const [error, setError] = useState('')
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!file) {
      setError('Choose the export file first.')
      return
    }
    setError('')
    setProgress(0)
    const res = await sendImport({ file, format, tz: tz.trim(), onProgress: setProgress })
    setProgress(null)
    if (res.ok) onDone(res.report)
    else setError(res.message)
  }
  return (
    <form onSubmit={submit} aria-labelledby={`${id}-h`} className="card space-y-4 p-5 sm:p-6">
      <h2 id={`${id}-h`} className="text-lg font-semibold text-slate-900">
        Upload an export
      </h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <label className="block text-sm font-medium text-slate-700 sm:col-span-3">
          Export file (CSV, at most 50 MiB)
          <input
            type="file"
            accept=".csv,text/csv"
            className="mt-1 block w-full text-sm"
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Format
          <select className="field-input mt-1 w-full" value={format} onChange={(e) => setFormat(e.currentTarget.value as '' | 'xibo' | 'csv')}>
            <option value="">From the header</option>
            <option value="xibo">Xibo proof of play</option>
            <option value="csv">Generic CSV</option>
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700 sm:col-span-2">
          Time zone of Xibo dates (when not exported as UTC)
          <input className="field-input mt-1 w-full" value={tz} placeholder="UTC" maxLength={64} onChange={(e) => setTz(e.currentTarget.value)} />
        </label>
      </div>
      {progress !== null && (
        <div>
          <label htmlFor={`${id}-p`} className="text-sm text-slate-600">
            Uploading
          </label>
          <progress id={`${id}-p`} className="block w-full" max={1} value={progress} />
        </div>
      )}
      {error && <Alert>{error}</Alert>}
      <button type="submit" className="btn-primary" disabled={progress !== null}>
        Import
      </button>
    </form>
  )
}

function ReportView({ report }: { report: ImportReport }) {
  return (
    <section aria-labelledby="import-report" className="card space-y-3 p-5 sm:p-6">
      <h2 id="import-report" className="text-lg font-semibold text-slate-900">
        Report: {report.file_name || report.format}
      </h2>
      {report.repeat && <Alert tone="info">This file was imported before and nothing new is mapped: this is its last report, and nothing was counted again.</Alert>}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
        {(
          [
            ['Accepted', report.accepted],
            ['Flagged', report.flagged],
            ['Refused', report.refused],
            ['Duplicates', report.duplicates],
            ['Plays counted', report.plays],
          ] as const
        ).map(([label, n]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-xl font-semibold text-slate-900">{n}</dd>
          </div>
        ))}
      </dl>
      {report.rows.length > 0 && (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Rows not counted, scrollable">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Rows not counted, and why</caption>
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">Line</th>
                <th scope="col" className="py-2 pr-3 font-medium">Outcome</th>
                <th scope="col" className="py-2 pr-3 font-medium">Reason</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {report.rows.map((r, i) => (
                <tr key={`${r.line}-${i}`}>
                  <td className="py-2 pr-3">{r.line}</td>
                  <td className="py-2 pr-3">{kindLabel(r.kind)}</td>
                  <td className="py-2 pr-3 break-words">{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {report.truncated && <p className="mt-2 text-sm text-slate-600">Only the first 1,000 reasons are kept.</p>}
        </div>
      )}
    </section>
  )
}

function MappingEditor({ last, mappings, loading }: { last: ImportReport | undefined; mappings: Mappings | undefined; loading: boolean }) {
  const campaigns = useMappingCampaignsQuery()
  const [campaignId, setCampaignId] = useState('')
  const weeks = useMappingWeeksQuery(campaignId, { skip: !campaignId })
  const faces = useMemo(() => faceOptions(weeks.data?.items ?? []), [weeks.data])
  const chosen = campaigns.data?.items.find((c) => c?.id === campaignId)
  const companyCreatives = useMappingCreativesQuery(chosen?.company ?? '', { skip: !chosen?.company })
  const creatives = useMemo(
    () => creativeOptions(weeks.data?.items ?? [], chosen?.creative_id ?? '', companyCreatives.data?.items ?? []),
    [weeks.data, chosen, companyCreatives.data],
  )
  const [picked, setPicked] = useState<Record<string, string>>({})
  const [save, saving] = useSetImportMappingsMutation()
  const [error, setError] = useState('')
  const [saved, setSaved] = useState(false)
  const open = stillUnmapped(last, mappings)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setError('')
    setSaved(false)
    const body: Mappings = {
      displays: open.displays.filter((r) => picked[`d:${r}`]).map((ref) => ({ ref, face_id: picked[`d:${ref}`]! })),
      media: open.media
        .filter((r) => picked[`m:${r}`])
        .map((ref) => ({ ref, campaign_id: campaignId, creative_id: picked[`m:${ref}`]! })),
    }
    if (body.displays.length + body.media.length === 0) {
      setError('Pick a face or a creative for at least one reference.')
      return
    }
    const res = await save(body)
    if ('error' in res) setError(errorMessage(res.error))
    else {
      setPicked({})
      setSaved(true)
    }
  }
  return (
    <section aria-labelledby="import-mappings" className="card space-y-4 p-5 sm:p-6">
      <div>
        <h2 id="import-mappings" className="text-lg font-semibold text-slate-900">
          Mappings
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Tie the CMS's display and media references of the last import to a campaign's faces and creative, then import the file again.
        </p>
      </div>
      {loading ? (
        <Spinner label="Loading mappings" />
      ) : open.displays.length + open.media.length === 0 ? (
        <p className="text-sm text-slate-600">Every reference of the last import is mapped.</p>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <label className="block text-sm font-medium text-slate-700">
            Campaign
            <select className="field-input mt-1 w-full" value={campaignId} onChange={(e) => setCampaignId(e.currentTarget.value)}>
              <option value="">Choose a campaign</option>
              {(campaigns.data?.items ?? []).filter(Boolean).map((c) => (
                <option key={c!.id} value={c!.id}>
                  {c!.name}
                </option>
              ))}
            </select>
          </label>
          <ul aria-label="Unmapped references" className="divide-y divide-slate-200">
            {open.displays.map((ref) => (
              <li key={`d:${ref}`} className="grid gap-2 py-3 sm:grid-cols-2 sm:items-center">
                <span className="break-words text-sm">
                  <span className="text-slate-500">Display</span> {ref}
                </span>
                <label className="text-sm">
                  <span className="sr-only">Face for display {ref}</span>
                  <select
                    className="field-input w-full"
                    disabled={!campaignId}
                    value={picked[`d:${ref}`] ?? ''}
                    onChange={(e) => setPicked({ ...picked, [`d:${ref}`]: e.currentTarget.value })}
                  >
                    <option value="">Not mapped</option>
                    {faces.map((f) => (
                      <option key={f.value} value={f.value}>
                        {f.label}
                      </option>
                    ))}
                  </select>
                </label>
              </li>
            ))}
            {open.media.map((ref) => (
              <li key={`m:${ref}`} className="grid gap-2 py-3 sm:grid-cols-2 sm:items-center">
                <span className="break-words text-sm">
                  <span className="text-slate-500">Media</span> {ref}
                </span>
                <label className="text-sm">
                  <span className="sr-only">Creative for media {ref}</span>
                  <select
                    className="field-input w-full"
                    disabled={!campaignId}
                    value={picked[`m:${ref}`] ?? ''}
                    onChange={(e) => setPicked({ ...picked, [`m:${ref}`]: e.currentTarget.value })}
                  >
                    <option value="">Not mapped</option>
                    {creatives.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </label>
              </li>
            ))}
          </ul>
          {error && <Alert>{error}</Alert>}
          <button type="submit" className="btn-primary" disabled={saving.isLoading}>
            Save mappings
          </button>
        </form>
      )}
      {saved && <Alert tone="success">Mappings saved. Import the file again to count its rows.</Alert>}
      {mappings && mappings.displays.length + mappings.media.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sm text-brand-700">
            {mappings.displays.length === 1 ? '1 display' : `${mappings.displays.length} displays`} and {mappings.media.length} media mapped
          </summary>
          <ul className="mt-2 space-y-1 text-sm text-slate-700">
            {mappings.displays.map((d) => (
              <li key={`d:${d.ref}`} className="break-words">
                Display {d.ref} → face {d.face_id}
              </li>
            ))}
            {mappings.media.map((m) => (
              <li key={`m:${m.ref}`} className="break-words">
                Media {m.ref} → creative {m.creative_id}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  )
}
