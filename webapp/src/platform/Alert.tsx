import type { ReactNode } from 'react'

const tones = {
  danger: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  info: 'border-sky-200 bg-sky-50 text-sky-800',
}

/** A message inside a form or a page; errors are announced (role=alert). */
export default function Alert({ tone = 'danger', children }: { tone?: keyof typeof tones; children: ReactNode }) {
  return (
    <div role={tone === 'danger' ? 'alert' : 'status'} className={`rounded-lg border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  )
}
