import { useState } from 'react'
import Field, { describedBy } from '../../../platform/inputs/Field'
import { addTag, CONTENT_TYPE_LABELS, CONTENT_TYPES, removeTag, SCOPE_LABELS, SCOPES, type ContentType, type Scope } from '../contentRules'

/** Tags: Enter adds the typed tag, uppercased; an empty or repeated tag is ignored (A §2). */
export function TagsInput({ id, tags, onChange }: { id: string; tags: string[]; onChange: (tags: string[]) => void }) {
  const [draft, setDraft] = useState('')
  const hint = 'Press Enter to add a tag.'
  return (
    <Field id={id} label="Tags" hint={hint} optional>
      <div className="space-y-2">
        <input
          id={id}
          className="field-input"
          value={draft}
          aria-describedby={describedBy(id, hint, null)}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return
            // Enter adds the tag instead of submitting the form.
            e.preventDefault()
            onChange(addTag(tags, draft))
            setDraft('')
          }}
        />
        {tags.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Tags added">
            {tags.map((tag) => (
              <li key={tag} className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-2.5 text-xs font-medium text-slate-700">
                {tag}
                <button type="button" className="rounded-full px-1 text-slate-500 hover:bg-slate-200 hover:text-slate-800" aria-label={`Remove tag ${tag}`} onClick={() => onChange(removeTag(tags, tag))}>
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Field>
  )
}

/** Which company types see the item (A §6). */
export function ScopeFieldset({ scopes, onChange, error }: { scopes: Scope[]; onChange: (scopes: Scope[]) => void; error?: string | null }) {
  return (
    <fieldset className="space-y-1.5" aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-700">Scope</legend>
      <div className="flex flex-wrap gap-4">
        {SCOPES.map((scope) => (
          <label key={scope} className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-700"
              checked={scopes.includes(scope)}
              aria-invalid={error ? true : undefined}
              onChange={(e) => onChange(e.target.checked ? SCOPES.filter((s) => s === scope || scopes.includes(s)) : scopes.filter((s) => s !== scope))}
            />
            {SCOPE_LABELS[scope]}
          </label>
        ))}
      </div>
      {error && <p className="text-sm text-red-600">{error}</p>}
    </fieldset>
  )
}

export function TypeSelect({ id, value, onChange, disabled }: { id: string; value: ContentType; onChange: (type: ContentType) => void; disabled?: boolean }) {
  return (
    <Field id={id} label="Type">
      <select id={id} className="field-input" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as ContentType)}>
        {CONTENT_TYPES.map((type) => (
          <option key={type} value={type}>
            {CONTENT_TYPE_LABELS[type]}
          </option>
        ))}
      </select>
    </Field>
  )
}

export function scopeError(scopes: Scope[]): string | null {
  return scopes.length === 0 ? 'Please choose at least one scope' : null
}
