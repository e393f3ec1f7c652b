import { Link, useParams } from 'react-router'
import type { ProofRecordView, VerifyResult } from '../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../platform/dates'
import Logo from '../../platform/Logo'
import { formatCount } from '../../platform/money'
import Spinner from '../../platform/Spinner'
import { useVerifyRecordQuery } from './api'
import { chainScope, displayCode, photoStatusLabel, reasonLabel, verdict } from './verifyRules'

/**
 * /verify/{code}: anyone holding a verification code (from the report PDF or the
 * campaign page) sees the signed proof-of-play record, whether its signature and its chain are
 * valid, and its proof photos. No sign-in; nothing else of the company is shown.
 */
export default function VerifyPage() {
  const { code = '' } = useParams()
  const { data, error, isLoading } = useVerifyRecordQuery(code)
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-4xl items-center justify-between px-4 py-3">
          <Link to="/" aria-label="Marquee home">
            <Logo />
          </Link>
          <span className="text-sm text-slate-600">Proof of play</span>
        </div>
      </header>
      <main className="mx-auto max-w-4xl px-4 py-8">
        {isLoading && <Spinner label="Checking the record" className="h-8 w-8" />}
        {error && <NotFound code={code} status={'status' in error ? error.status : 0} />}
        {data && <Record result={data} />}
      </main>
    </div>
  )
}

function NotFound({ code, status }: { code: string; status: number }) {
  return (
    <section aria-labelledby="verify-title" className="rounded-xl border border-slate-200 bg-white p-6">
      <p className="text-sm font-semibold text-slate-500">{status === 404 ? '404' : 'Error'}</p>
      <h1 id="verify-title" className="mt-1 text-2xl font-semibold text-slate-900">
        {status === 404 ? 'No record has this verification code' : 'The record could not be checked'}
      </h1>
      <p className="mt-2 text-slate-700">
        {status === 404 ? (
          <>
            We found no proof-of-play record for <span className="font-mono">{displayCode(code).slice(0, 40)}</span>. Check the code on the report or the campaign page: it
            has twelve letters and digits, like ABCD-EFGH-2345.
          </>
        ) : (
          'Please try again in a moment.'
        )}
      </p>
    </section>
  )
}

function Record({ result }: { result: VerifyResult }) {
  const r = result.record
  const v = verdict(result)
  return (
    <div className="space-y-6">
      <section
        aria-labelledby="verify-title"
        className={`rounded-xl border p-6 ${v.tone === 'valid' ? 'border-emerald-300 bg-emerald-50' : 'border-red-300 bg-red-50'}`}
      >
        <p className="text-sm text-slate-700">
          Verification code <span className="font-mono font-semibold">{r.code}</span>
        </p>
        <h1 id="verify-title" className={`mt-1 text-2xl font-semibold ${v.tone === 'valid' ? 'text-emerald-900' : 'text-red-900'}`}>
          {v.title}
        </h1>
        <p className="mt-2 text-slate-800">{v.text}</p>
        <ul className="mt-3 space-y-1 text-sm text-slate-800">
          <li>Signature: {result.signature_valid ? 'valid' : 'not valid'}</li>
          <li>
            Chain: {result.chain_valid ? 'intact' : 'broken'} ({chainScope(result)})
          </li>
          {r.proofs.length > 0 && <li>Proof photos: {result.photos_valid ? 'each is the photo signed' : 'not the photos signed'}</li>}
        </ul>
        {result.problems.length > 0 && (
          <ul aria-label="Problems found" className="mt-3 list-disc space-y-1 pl-5 text-sm text-red-900">
            {result.problems.map((p, i) => (
              <li key={i}>
                Record {p.seq}: {p.reason}
              </li>
            ))}
          </ul>
        )}
        {result.superseded && (
          <p className="mt-3 text-sm text-amber-900">
            A later record of this week replaces this one (recorded {formatDisplayDate(result.superseded_at.slice(0, 10))}): the figures were corrected.
            {result.superseded_by && (
              <>
                {' '}
                See{' '}
                <Link className="font-mono underline" to={`/verify/${result.superseded_by.replace(/-/g, '')}`}>
                  {result.superseded_by}
                </Link>
                .
              </>
            )}
          </p>
        )}
      </section>
      <RecordFacts record={r} />
      <section aria-labelledby="proofs-title">
        <h2 id="proofs-title" className="text-lg font-semibold text-slate-900">
          Proof photos
        </h2>
        {r.proofs.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">This record has no proof photos.</p>
        ) : (
          <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
            {r.proofs.map((p, i) => {
              const check = photoStatusLabel(p.status)
              return (
                <li key={p.id}>
                  <figure className={`overflow-hidden rounded-xl border bg-white ${check.tone === 'valid' ? 'border-slate-200' : 'border-red-400 ring-2 ring-red-200'}`}>
                    <a href={p.url} target="_blank" rel="noreferrer">
                      <img src={p.thumb} alt={`Proof photo ${i + 1}`} className="aspect-[4/3] w-full bg-slate-100 object-cover" loading="lazy" />
                    </a>
                    <figcaption className="space-y-1 px-2 py-1.5">
                      <span
                        data-testid="photo-check"
                        className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${check.tone === 'valid' ? 'bg-emerald-100 text-emerald-900' : 'bg-red-100 text-red-900'}`}
                      >
                        {check.text}
                      </span>
                      <span className="block break-all font-mono text-[11px] text-slate-600">SHA-256 {p.sha256}</span>
                    </figcaption>
                  </figure>
                </li>
              )
            })}
          </ul>
        )}
      </section>
      <details className="rounded-xl border border-slate-200 bg-white p-4 text-sm">
        <summary className="cursor-pointer font-medium text-slate-900">Check it yourself</summary>
        <p className="mt-2 text-slate-700">
          The signature is Ed25519 over the exact text below; its SHA-256 is the record's hash. The public key is at{' '}
          <a className="text-brand-700 underline" href={result.public_key_url}>
            {result.public_key_url}
          </a>{' '}
          (key {r.key_id}). Each proof photo's SHA-256 is part of the signed text: hash the file the photo links to and compare. The whole chain, earlier and
          superseded records included, is at{' '}
          <a className="text-brand-700 underline" href={result.chain_url}>
            {result.chain_url}
          </a>
          .
        </p>
        <dl className="mt-2 space-y-2 break-all font-mono text-xs text-slate-800">
          <div>
            <dt className="font-sans font-medium">Signed text</dt>
            <dd>{r.canonical}</dd>
          </div>
          <div>
            <dt className="font-sans font-medium">Hash</dt>
            <dd>{r.hash}</dd>
          </div>
          <div>
            <dt className="font-sans font-medium">Signature (base64)</dt>
            <dd>{r.signature}</dd>
          </div>
        </dl>
      </details>
    </div>
  )
}

function RecordFacts({ record: r }: { record: ProofRecordView }) {
  return (
    <section aria-labelledby="record-title" className="rounded-xl border border-slate-200 bg-white p-6">
      <h2 id="record-title" className="text-lg font-semibold text-slate-900">
        {reasonLabel(r.reason, r.replaces)}
      </h2>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Fact label="Billboard face" value={[r.location, r.market].filter(Boolean).join(' · ') || 'Not shown'} />
        <Fact label="Week" value={`${formatDisplayDate(r.week)} – ${formatDisplayDate(r.week_end)}`} />
        <Fact label="Impressions delivered" value={r.impressions == null ? 'Not recorded yet' : formatCount(r.impressions)} />
        <Fact label="Recorded" value={`${formatDisplayDate(r.recorded_at.slice(0, 10))}, ${r.recorded_at.slice(11, 16)} UTC`} />
        <Fact label="Place in the campaign's chain" value={`Record ${r.seq}`} />
        <Fact label="Proof photos" value={String(r.proofs.length)} />
      </dl>
    </section>
  )
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  )
}
