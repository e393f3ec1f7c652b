const tones: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-amber-100 text-amber-800',
  paused: 'bg-sky-100 text-sky-800',
  completed: 'bg-slate-200 text-slate-700',
  canceled: 'bg-red-100 text-red-800',
}

/** A campaign's display status (a stored 'paid' already arrives as pending, B §4). */
export default function StatusBadge({ status }: { status: string }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${tones[status] ?? 'bg-slate-100 text-slate-700'}`}>{status}</span>
}
