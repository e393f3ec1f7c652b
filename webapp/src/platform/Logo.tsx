/** The Marquee mark and name. */
export default function Logo({ className = '', light = false }: { className?: string; light?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 64 64" className="h-8 w-8 shrink-0">
        <rect width="64" height="64" rx="14" fill="#4338ca" />
        <rect x="10" y="16" width="44" height="26" rx="4" fill="#fbbf24" />
        <rect x="29" y="42" width="6" height="12" fill="#fbbf24" />
        <path d="M18 36V22l7 8 7-8v14" fill="none" stroke="#4338ca" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className={`text-xl font-semibold tracking-tight ${light ? 'text-white' : 'text-slate-900'}`}>Marquee</span>
    </span>
  )
}
