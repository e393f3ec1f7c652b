/** The turning mark of a wait, hidden from assistive technology. It shows after 600 ms (index.css,
 *  --animate-busy), so a fast answer flashes none; the words beside it are there at once. */
export function BusyMark({ className = 'h-4 w-4' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={`${className} animate-busy text-brand-600`} fill="none">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.2" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  )
}

/** A small busy indicator with a text for assistive technology: a status with BusyMark. */
export default function Spinner({ label = 'Loading', className = 'h-6 w-6' }: { label?: string; className?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2 text-slate-500">
      <BusyMark className={className} />
      <span className="sr-only">{label}</span>
    </span>
  )
}
