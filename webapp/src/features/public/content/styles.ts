// Shared Tailwind class lists for the public pages, so buttons and links look the same everywhere.

export const primaryButton =
  'inline-flex items-center justify-center rounded-lg bg-indigo-600 px-5 py-3 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600'

export const secondaryButton =
  'inline-flex items-center justify-center rounded-lg bg-white px-5 py-3 text-sm font-semibold text-slate-900 shadow-sm ring-1 ring-slate-300 transition-colors ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600'

export const textLink =
  'font-semibold text-indigo-600 underline-offset-4 hover:text-indigo-500 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600'

/** Outer width and padding of a content band. */
export const container = 'mx-auto max-w-6xl px-4 sm:px-6 lg:px-8'

export const sectionTitle = 'text-2xl font-bold tracking-tight text-slate-900 text-balance sm:text-3xl'
