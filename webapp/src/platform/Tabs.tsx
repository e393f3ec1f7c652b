import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

export interface Tab {
  id: string
  label: string
  content: ReactNode
}

/** Accessible tabs: arrow keys, Home and End move between them (WAI-ARIA tabs pattern). */
export default function Tabs({ label, tabs, selected, onSelect }: { label: string; tabs: Tab[]; selected: string; onSelect: (id: string) => void }) {
  const base = useId()
  const buttons = useRef(new Map<string, HTMLButtonElement>())
  const index = Math.max(0, tabs.findIndex((t) => t.id === selected))
  const current = tabs[index]

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }
    if (!(event.key in moves)) return
    event.preventDefault()
    const next = tabs[(moves[event.key]! + tabs.length) % tabs.length]!
    onSelect(next.id)
    buttons.current.get(next.id)?.focus()
  }

  return (
    <div>
      <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200" onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const active = tab.id === current?.id
          return (
            <button
              key={tab.id}
              ref={(el) => {
                if (el) buttons.current.set(tab.id, el)
                else buttons.current.delete(tab.id)
              }}
              id={`${base}-${tab.id}-tab`}
              type="button"
              role="tab"
              aria-selected={active}
              aria-controls={`${base}-${tab.id}-panel`}
              tabIndex={active ? 0 : -1}
              className={`-mb-px border-b-2 px-4 py-2.5 text-sm font-medium whitespace-nowrap ${
                active ? 'border-brand-700 text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-800'
              }`}
              onClick={() => onSelect(tab.id)}
            >
              {tab.label}
            </button>
          )
        })}
      </div>
      {current && (
        <div id={`${base}-${current.id}-panel`} role="tabpanel" aria-labelledby={`${base}-${current.id}-tab`} tabIndex={0} className="pt-6 focus-visible:outline-none">
          {current.content}
        </div>
      )}
    </div>
  )
}
