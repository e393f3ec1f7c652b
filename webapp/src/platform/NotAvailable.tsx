import { useId } from 'react'
import { useMatches } from 'react-router'

export interface SectionHandle {
  /** The section's name, e.g. 'Campaigns'. */
  section: string
}

function isSectionHandle(handle: unknown): handle is SectionHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as SectionHandle).section === 'string'
}

/** The honest panel for a section whose screen is not built yet; it names the section. */
export function NotAvailablePanel({ section, heading: Heading = 'h1' }: { section: string; heading?: 'h1' | 'h2' }) {
  const titleId = useId()
  return (
    <section aria-labelledby={titleId} className="card mx-auto max-w-2xl px-6 py-12 text-center">
      <div className="mx-auto mb-4 flex h-14 w-14 items-center justify-center rounded-full bg-marquee-300/40 text-marquee-500" aria-hidden="true">
        <svg viewBox="0 0 24 24" className="h-7 w-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M12 8v4l3 2" />
          <circle cx="12" cy="12" r="9" />
        </svg>
      </div>
      <Heading id={titleId} className="text-2xl font-semibold text-slate-900">
        {section}
      </Heading>
      <p className="mt-2 text-slate-600">This section is not available yet.</p>
      <p className="mt-1 text-sm text-slate-500">We are building it now; it will appear here as soon as it is ready.</p>
    </section>
  )
}

/** A route's component: names the section given in the route's `handle`. */
export default function NotAvailable() {
  const matches = useMatches()
  const handle = [...matches].reverse().find((m) => isSectionHandle(m.handle))?.handle
  return <NotAvailablePanel section={isSectionHandle(handle) ? handle.section : 'This page'} />
}
