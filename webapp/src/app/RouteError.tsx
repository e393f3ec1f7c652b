import { isRouteErrorResponse, Link, useRouteError } from 'react-router'

/** Shown when a screen fails to load or throws: a plain apology and a way back. */
export default function RouteError() {
  const error = useRouteError()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  // A new release replaces the hashed chunks; a reload fetches the current ones.
  const staleChunk = error instanceof Error && /dynamically imported module|Importing a module script failed/i.test(error.message)
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="card max-w-md px-8 py-10 text-center">
        <h1 className="text-xl font-semibold text-slate-900">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
        <p className="mt-2 text-slate-600">
          {staleChunk
            ? 'A new version of Marquee is available. Please reload the page.'
            : 'Sorry! something went wrong, please try again'}
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <button type="button" className="btn-secondary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <Link to="/" className="btn-primary">
            Go to Marquee
          </Link>
        </div>
      </div>
    </main>
  )
}
