import { displayStatus, statusLabel, statusTone } from './listRules'

export default function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusTone[displayStatus(status)] ?? 'bg-slate-100 text-slate-700'}`}>
      {statusLabel(status)}
    </span>
  )
}
