import { displayStatus, statusLabel, statusTone } from './listRules'

/** A campaign's status as both the advertiser's and the admin's screens show it ('paid' as pending, B §4). */
export default function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${statusTone[displayStatus(status)] ?? 'bg-slate-100 text-slate-700'}`}>
      {statusLabel(status)}
    </span>
  )
}
