const styles: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800',
  invited: 'bg-amber-100 text-amber-900',
  disabled: 'bg-slate-200 text-slate-700',
}

/** A user's status (active, invited, disabled) as the server answers it. */
export default function UserStatus({ status }: { status: string }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${styles[status] ?? 'bg-slate-100 text-slate-700'}`}>{status || 'unknown'}</span>
}
