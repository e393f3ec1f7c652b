import type { ReactNode } from 'react'

interface PageIntroProps {
  eyebrow: string
  title: string
  children: ReactNode
}

/** The opening band of a public information page: a small label, the page's one h1 and a lead paragraph. */
export default function PageIntro({ eyebrow, title, children }: PageIntroProps) {
  return (
    <header className="border-b border-slate-200 bg-linear-to-b from-indigo-50 to-white">
      <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">{eyebrow}</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 text-balance sm:text-4xl">{title}</h1>
        <div className="mt-4 max-w-3xl text-lg leading-relaxed text-slate-600">{children}</div>
      </div>
    </header>
  )
}
