import { yearsDownTo2018 } from '../rules'

/**
 * A year selector (B §9: from the current year down to 2018). With `allTime`, 'All Time' comes
 * first and stands for 0 (B §2 /codes-redeemed).
 */
export default function YearSelect({ id, value, onChange, allTime = false, label = 'Year' }: { id: string; value: number; onChange: (year: number) => void; allTime?: boolean; label?: string }) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} className="field-input w-auto min-w-36" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {allTime && <option value={0}>All Time</option>}
        {yearsDownTo2018().map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </select>
    </div>
  )
}
