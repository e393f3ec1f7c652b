import { useId, type ReactNode } from 'react'
import { CHECK_NAMES, type PreflightCheck, type PreflightLevel, type PreflightReport } from './preflight'
import { BusyMark } from '../../../platform/Spinner'

// Colour is never the only signal (WCAG 1.4.1): each level has a word and a symbol too. The
// colours meet 4.5:1 on their light backgrounds.
const LEVELS: Record<PreflightLevel, { word: string; symbol: string; className: string }> = {
  pass: { word: 'Pass', symbol: '✓', className: 'border-emerald-200 bg-emerald-50 text-emerald-800' },
  warning: { word: 'Warning', symbol: '!', className: 'border-amber-200 bg-amber-50 text-amber-900' },
  fail: { word: 'Fail', symbol: '✕', className: 'border-red-200 bg-red-50 text-red-800' },
  skipped: { word: 'Skipped', symbol: '–', className: 'border-slate-200 bg-slate-50 text-slate-700' },
}

function levelOf(level: string): (typeof LEVELS)[PreflightLevel] {
  return LEVELS[level as PreflightLevel] ?? LEVELS.skipped
}

function scoreTone(score: number): string {
  if (score >= 80) return 'text-emerald-800'
  if (score >= 50) return 'text-amber-900'
  return 'text-red-800'
}

function CheckRow({ check }: { check: PreflightCheck }) {
  const level = levelOf(check.level)
  return (
    <li className={`rounded-lg border px-3 py-2 ${level.className}`} data-check={check.id} data-level={check.level}>
      <p className="flex items-start gap-2 text-sm">
        <span aria-hidden="true" className="w-4 shrink-0 text-center font-bold">
          {level.symbol}
        </span>
        <span>
          <span className="font-semibold">
            {CHECK_NAMES[check.id] ?? check.id}: {level.word}.
          </span>{' '}
          {check.message}
        </span>
      </p>
      {check.hint && <p className="mt-1 pl-6 text-xs">{check.hint}</p>}
    </li>
  )
}

export interface PreflightPanelProps {
  title?: string
  report?: PreflightReport | null
  loading?: boolean
  /** A message when the report could not be made. */
  error?: string | null
  /** Shown when there is nothing to check yet. */
  empty?: ReactNode
  /** Announce changes politely (the builder's live report). */
  live?: boolean
  children?: ReactNode
  /** Shown below the checks (a preview). */
  after?: ReactNode
}

/**
 * A pre-flight report (issue 29): the score out of 100 and each check with its level, message and
 * hint. Warnings are advice: nothing here blocks a save or a purchase.
 */
export default function PreflightPanel({ title = 'Pre-flight', report, loading, error, empty, live, children, after }: PreflightPanelProps) {
  const id = useId()
  const counts = report?.checks.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c.level]: (acc[c.level] ?? 0) + 1 }), {})
  return (
    <section className="card space-y-3 p-4" aria-labelledby={`${id}-title`} data-testid="preflight-panel">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          {title}
        </h2>
        {report && !loading && (
          <p className={`text-sm font-semibold ${scoreTone(report.score)}`} data-testid="preflight-score">
            Score {report.score}/100
          </p>
        )}
      </div>
      {children}
      <div aria-busy={loading || undefined}>
        {loading ? (
          // Not a role=status: the panel sits in forms whose own status messages are the ones to announce.
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <BusyMark />
            Checking the creative…
          </p>
        ) : error ? (
          // Advice that could not be given is not an alert: nothing the user does depends on it.
          <p className="text-sm text-red-700" data-testid="preflight-error">
            {error}
          </p>
        ) : !report ? (
          <p className="text-sm text-slate-600">{empty ?? 'Nothing to check yet.'}</p>
        ) : (
          <>
            {/* Only this summary is announced as the report changes, not every check on every keystroke. */}
            <p className="sr-only" aria-live={live ? 'polite' : undefined}>
              Score {report.score} out of 100: {counts?.fail ?? 0} failed, {counts?.warning ?? 0} warnings.
            </p>
            <ul className="space-y-2" aria-label="Checks">
              {report.checks.map((c) => (
                <CheckRow key={c.id} check={c} />
              ))}
            </ul>
            <p className="text-xs text-slate-600">Warnings are advice: you can still save the creative and buy the campaign.</p>
          </>
        )}
      </div>
      {after}
    </section>
  )
}
