import { useEffect, useId, useState } from 'react'
import { useReportCompaniesQuery } from '../api'

/**
 * The admin's company picker: a search on the company names (GET /api/admin/reports/companies?q=),
 * then a choice among the matches.
 */
export default function CompanyPicker({ value, onChange, error, disabled = false }: { value: string; onChange: (id: string) => void; error?: string | null; disabled?: boolean }) {
  const id = useId()
  const [text, setText] = useState('')
  const [q, setQ] = useState('')
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), 300)
    return () => clearTimeout(t)
  }, [text])
  const companies = useReportCompaniesQuery(q)
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div className="space-y-1.5">
        <label htmlFor={`${id}-q`} className="block text-sm font-medium text-slate-700">
          Find a company
        </label>
        <input id={`${id}-q`} type="search" className="field-input" placeholder="Company name" value={text} onChange={(e) => setText(e.target.value)} disabled={disabled} />
      </div>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-company`} className="block text-sm font-medium text-slate-700">
          Company
        </label>
        <select
          id={`${id}-company`}
          className="field-input"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <option value="">{companies.data?.length ? 'Choose a company' : 'No company found'}</option>
          {(companies.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        {error && (
          <p id={`${id}-error`} className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    </div>
  )
}
