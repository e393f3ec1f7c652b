import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useParams } from 'react-router'
import Alert from '../../../platform/Alert'
import { MaxNameLen, MsgRenamed, type ReportData } from '../../../platform/api-types/reports'
import LineChart from '../../../platform/chart/LineChart'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { formatCount, formatDollars } from '../../../platform/money'
import Spinner from '../../../platform/Spinner'
import { useRenameReportMutation, useReportDataQuery, useReportQuery } from '../api'
import MailerDialog from '../components/MailerDialog'
import { deliveryTone, formatDiff, formatPct } from '../rules'

/**
 * B §2 /reports/{id} (and /admin/reports/{id}): the report's figures (an ApexCharts chart and the
 * tables), the PDF in the page, its download and the CSV beside it, and rename. Admins can also
 * email the advertiser.
 */
export function ReportView({ admin = false }: { admin?: boolean }) {
  const { id = '' } = useParams()
  const report = useReportQuery(id)
  const data = useReportDataQuery(id)
  const [mailing, setMailing] = useState(false)
  const back = admin ? '/admin/reports' : '/reports'

  if (report.isLoading) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the report" />
      </div>
    )
  }
  if (report.isError || !report.data) {
    return (
      <div className="space-y-4">
        <Alert>{errorMessage(report.error)}</Alert>
        <Link to={back} className="link">
          Back to the reports
        </Link>
      </div>
    )
  }
  const r = report.data
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-1">
          <Link to={back} className="link text-sm">
            ← Reports
          </Link>
          <RenameableTitle id={r.id} name={r.name} />
          <p className="text-slate-600">
            {r.campaign_name} · {r.company_name}
            {r.period_start && ` · ${formatDisplayDate(r.period_start)} – ${formatDisplayDate(r.period_end)}`}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a href={`${r.url}?download=1`} download={r.filename} className="btn-primary">
            Download PDF
          </a>
          {r.csv_url && (
            <a href={r.csv_url} download className="btn-secondary">
              Download CSV
            </a>
          )}
          {admin && (
            <button type="button" className="btn-secondary" onClick={() => setMailing(true)}>
              Email the advertiser
            </button>
          )}
        </div>
      </div>

      {data.data?.has_figures && <Figures data={data.data} />}

      <section aria-labelledby="report-pdf" className="card overflow-hidden">
        <h2 id="report-pdf" className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900">
          The PDF
        </h2>
        <ReportPdf name={r.name} url={r.url} filename={r.filename} />
      </section>
      {admin && <MailerDialog reportId={mailing ? r.id : null} campaignName={r.campaign_name} onClose={() => setMailing(false)} />}
    </div>
  )
}

/**
 * The PDF in a frame of our own origin (the CSP's frame-src allows the report file routes only). A browser without a PDF viewer (phones: navigator.pdfViewerEnabled is false) would
 * offer an empty frame or a stray download, so it gets the download link instead.
 */
function ReportPdf({ name, url, filename }: { name: string; url: string; filename: string }) {
  if (typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === false) {
    return (
      <div className="flex flex-col items-start gap-3 p-4 sm:p-6">
        <p className="text-slate-600">This browser cannot show the PDF in the page. Download it to read it.</p>
        <a href={`${url}?download=1`} download={filename} className="btn-primary">
          Download PDF
        </a>
      </div>
    )
  }
  return <iframe title={`PDF of ${name}`} src={url} className="h-[70vh] min-h-96 w-full bg-slate-100" />
}

/** The report's name, with its rename form. */
function RenameableTitle({ id, name }: { id: string; name: string }) {
  const [editing, setEditing] = useState(false)
  const [value, setValue] = useState(name)
  const [error, setError] = useState<string | null>(null)
  const [rename, renaming] = useRenameReportMutation()
  const dispatch = useDispatch()

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    try {
      await rename({ id, name: value }).unwrap()
      dispatch(flashShown(MsgRenamed, 'success'))
      setEditing(false)
    } catch (err) {
      setError(errorMessage(err))
    }
  }

  if (!editing) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-words text-slate-900 sm:text-3xl">{name}</h1>
        <button
          type="button"
          className="btn-ghost"
          onClick={() => {
            setValue(name)
            setEditing(true)
          }}
        >
          Rename
        </button>
      </div>
    )
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-start" noValidate>
      <div className="w-full sm:max-w-md">
        <label htmlFor="report-rename" className="sr-only">
          Report name
        </label>
        <input
          id="report-rename"
          className="field-input"
          maxLength={MaxNameLen}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'report-rename-error' : undefined}
          autoFocus
        />
        {error && (
          <p id="report-rename-error" className="mt-1 text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="btn-primary" disabled={renaming.isLoading}>
        Save name
      </button>
      <button type="button" className="btn-secondary" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  )
}

/** The figures: the totals, the chart and the week and face tables (the PDF's). */
function Figures({ data }: { data: ReportData }) {
  const t = data.totals
  const chart = {
    labels: data.weeks.map((w) => formatDisplayDate(w.start_at).replace(/, \d{4}$/, '')),
    series: [
      { name: 'Planned impressions', data: data.weeks.map((w) => w.planned), color: '#a5b4fc' },
      { name: 'Delivered impressions', data: data.weeks.map((w) => w.delivered), color: '#4338ca' },
    ],
  }
  return (
    <>
      <section aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Total label="Planned impressions" value={formatCount(t.planned)} />
        <Total label="Delivered impressions" value={formatCount(t.delivered)} />
        <Total label="Difference" value={formatDiff(t.difference)} tone={deliveryTone(t.delivery_pct, t.planned)} />
        <Total label="Delivery" value={formatPct(t.delivery_pct, t.planned)} tone={deliveryTone(t.delivery_pct, t.planned)} />
        <Total label="Spend" value={formatDollars(t.spend)} />
      </section>
      <section aria-labelledby="report-chart" className="card p-4 sm:p-6">
        <h2 id="report-chart" className="text-lg font-semibold text-slate-900">
          Impressions by week
        </h2>
        <LineChart label="Planned and delivered impressions by week" data={chart} height={300} />
      </section>
      <section aria-labelledby="report-weeks" className="card overflow-x-auto" tabIndex={0}>
        <h2 id="report-weeks" className="px-4 pt-4 text-lg font-semibold text-slate-900">
          Delivery by week
        </h2>
        <FigureTable
          caption="Delivery by week"
          head={['Week', 'Faces']}
          rows={data.weeks.map((w) => ({ key: w.start_at, cells: [`${formatDisplayDate(w.start_at)} – ${formatDisplayDate(w.end_at)}`, String(w.faces)], f: w }))}
          total={{ cells: ['Total', String(data.faces.length)], f: t }}
        />
      </section>
      <section aria-labelledby="report-faces" className="card overflow-x-auto" tabIndex={0}>
        <h2 id="report-faces" className="px-4 pt-4 text-lg font-semibold text-slate-900">
          Delivery by face
        </h2>
        <FigureTable
          caption="Delivery by face"
          head={['Location', 'Market', 'Face']}
          rows={data.faces.map((f) => ({ key: f.face_id, cells: [f.location_name, f.market, f.face], f }))}
          total={{ cells: ['Total', '', ''], f: t }}
        />
      </section>
    </>
  )
}

interface FigureRow {
  planned: number
  delivered: number
  difference: number
  delivery_pct: number
}

const FIGURE_HEADS = ['Planned', 'Delivered', 'Difference', 'Delivery']

// Under 640 px each row is a card of label–value lines (on a phone the figures sat
// off-screen); the table keeps its roles, its head read but not shown, each label hidden from
// assistive technology.
const cardTable = 'max-sm:block'
const cardRow = 'max-sm:block max-sm:border-b max-sm:border-slate-200 max-sm:py-2'
const cardCell = 'max-sm:flex max-sm:justify-between max-sm:gap-4 max-sm:py-1'

function CardLabel({ children }: { children: string }) {
  return (
    <span aria-hidden="true" className="text-xs font-semibold tracking-wide text-slate-500 uppercase sm:hidden">
      {children}
    </span>
  )
}

function FigureTable({ caption, head, rows, total }: { caption: string; head: string[]; rows: { key: string; cells: string[]; f: FigureRow }[]; total: { cells: string[]; f: FigureRow } }) {
  const figureCells = (f: FigureRow) =>
    [formatCount(f.planned), formatCount(f.delivered), formatDiff(f.difference), formatPct(f.delivery_pct, f.planned)].map((v, i) => (
      <td key={i} role="cell" className={`px-4 py-2 text-right tabular-nums ${i === 3 ? `font-medium ${deliveryTone(f.delivery_pct, f.planned)}` : ''} ${cardCell}`}>
        <CardLabel>{FIGURE_HEADS[i]!}</CardLabel>
        <span>{v}</span>
      </td>
    ))
  const labelCells = (cells: string[], strong: boolean) =>
    cells.map((c, i) =>
      i === 0 ? (
        <th key={i} scope="row" role="rowheader" className={`px-4 py-2 text-left break-words ${strong ? '' : 'font-medium text-slate-900'} max-sm:block`}>
          {c}
        </th>
      ) : c === '' ? (
        <td key={i} role="cell" className="px-4 py-2 max-sm:hidden" />
      ) : (
        <td key={i} role="cell" className={`px-4 py-2 ${cardCell}`}>
          <CardLabel>{head[i]!}</CardLabel>
          <span>{c}</span>
        </td>
      ),
    )
  return (
    <table role="table" className={`mt-2 w-full text-sm sm:min-w-[40rem] ${cardTable}`}>
      <caption className="sr-only">{caption}</caption>
      <thead role="rowgroup" className="bg-brand-50 text-left text-xs tracking-wide text-brand-900 uppercase max-sm:sr-only">
        <tr role="row">
          {head.map((h) => (
            <th key={h} scope="col" role="columnheader" className="px-4 py-2 font-semibold">
              {h}
            </th>
          ))}
          {FIGURE_HEADS.map((h) => (
            <th key={h} scope="col" role="columnheader" className="px-4 py-2 text-right font-semibold">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup" className={`divide-y divide-slate-100 ${cardTable}`}>
        {rows.map((r) => (
          <tr key={r.key} role="row" className={cardRow}>
            {labelCells(r.cells, false)}
            {figureCells(r.f)}
          </tr>
        ))}
      </tbody>
      <tfoot role="rowgroup" className={`border-t-2 border-brand-700 font-semibold text-slate-900 ${cardTable}`}>
        <tr role="row" className={cardRow}>
          {labelCells(total.cells, true)}
          {figureCells(total.f)}
        </tr>
      </tfoot>
    </table>
  )
}

function Total({ label, value, tone = 'text-slate-900' }: { label: string; value: string; tone?: string }) {
  return (
    <div className="card px-4 py-3">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <p className={`mt-1 text-xl font-semibold tabular-nums ${tone}`}>{value}</p>
    </div>
  )
}

export default function AdvertiserReportView() {
  return <ReportView />
}
