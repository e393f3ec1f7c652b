import { Link } from 'react-router'
import { container, primaryButton } from './styles'

interface SignUpCalloutProps {
  title?: string
  text?: string
}

/** Closing band of a public page: invite the reader to create an account or sign in. */
export default function SignUpCallout({
  title = 'Put your brand on the big screen',
  text = 'Create a free account with your company, then plan your first campaign in minutes. You pay only for the weeks you book.',
}: SignUpCalloutProps) {
  return (
    <section aria-labelledby="signup-callout-title" className="bg-slate-900">
      <div className={`${container} py-14 sm:py-16`}>
        <div className="flex flex-col gap-6 lg:flex-row lg:items-center lg:justify-between">
          <div className="max-w-2xl">
            <h2 id="signup-callout-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
              {title}
            </h2>
            <p className="mt-3 text-base leading-relaxed text-slate-300">{text}</p>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Link to="/register" className={primaryButton}>
              Create an account
            </Link>
            <Link
              to="/login"
              className="inline-flex items-center justify-center rounded-lg px-5 py-3 text-sm font-semibold text-white ring-1 ring-slate-600 ring-inset transition-colors hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
            >
              Sign in
            </Link>
          </div>
        </div>
      </div>
    </section>
  )
}
