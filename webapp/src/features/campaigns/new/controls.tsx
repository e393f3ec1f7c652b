/** A round toggle of the market and city filters: a checkbox over a pill. */
export function Chip({ label, checked, onChange }: { label: string; checked: boolean; onChange: () => void }) {
  return (
    <label className={`relative cursor-pointer rounded-full border px-3 py-1 text-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${checked ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-300 text-slate-700'}`}>
      {/* The checkbox covers the whole chip (transparent): a click or a tap anywhere on it lands on it. */}
      <input type="checkbox" className="absolute inset-0 m-0 h-full w-full cursor-pointer appearance-none rounded-full opacity-0" checked={checked} onChange={onChange} />
      {label}
    </label>
  )
}

export function Choice({ name, label, checked, onChange }: { name: string; label: string; checked: boolean; onChange: () => void }) {
  return (
    <label className={`cursor-pointer rounded-lg border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${checked ? 'border-brand-600 bg-brand-50 font-medium text-brand-800' : 'border-slate-300 text-slate-700'}`}>
      <input type="radio" name={name} className="sr-only" checked={checked} onChange={onChange} />
      {label}
    </label>
  )
}

