import { lazy, Suspense, useState } from 'react'
import { Link } from 'react-router'
import Spinner from '../../../platform/Spinner'

const Reference = lazy(() => import('../Reference'))

const curl = `curl https://your-marquee-host/api/v1/campaigns \\
  -H "Authorization: Bearer $MARQUEE_API_KEY"`

const typescript = `const base = 'https://your-marquee-host/api/v1'
const headers = { Authorization: \`Bearer \${process.env.MARQUEE_API_KEY}\` }

// Campaigns, then each one's weeks: one face in one week, with its delivery (act_imp).
const campaigns = await (await fetch(\`\${base}/campaigns\`, { headers })).json()
for (const c of campaigns.items) {
  const weeks = await (await fetch(\`\${base}/campaigns/\${c.id}/weeks\`, { headers })).json()
  console.log(c.name, weeks.items.map((w) => [w.start_at, w.product.location_name, w.act_imp]))
}

// Creating a campaign: the Idempotency-Key makes a retry safe.
const res = await fetch(\`\${base}/campaigns\`, {
  method: 'POST',
  headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
  body: JSON.stringify(form),
})
if (!res.ok) throw new Error((await res.json()).message) // the one error envelope`

function Code({ label, code }: { label: string; code: string }) {
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 text-sm font-medium text-slate-700">{label}</figcaption>
      <pre tabIndex={0} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </figure>
  )
}

/** /developers: the API reference (issue 18), readable without signing in. */
export default function Developers() {
  const [lang, setLang] = useState<'curl' | 'ts'>('curl')
  return (
    <main id="main" className="mx-auto max-w-5xl space-y-8 px-4 py-8 sm:px-6">
      <header className="space-y-2">
        <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Marquee for developers</p>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">The Marquee API</h1>
        <p className="max-w-3xl text-slate-700">
          Create campaigns, follow their delivery week by week and face by face, and download reports from your own tools. Make a key in{' '}
          <Link to="/settings?tab=api" className="link">
            Settings → API
          </Link>
          , send it as <code className="rounded bg-slate-100 px-1">Authorization: Bearer &lt;key&gt;</code> to the calls under{' '}
          <code className="rounded bg-slate-100 px-1">/api/v1</code>, and read the answers below. The machine-readable document is{' '}
          <a href="/api/openapi.json" className="link">
            /api/openapi.json
          </a>{' '}
          (OpenAPI 3.1).
        </p>
      </header>

      <section aria-labelledby="quick-start" className="space-y-3">
        <h2 id="quick-start" className="text-xl font-semibold text-slate-900">
          Quick start
        </h2>
        <div role="group" aria-label="Example language" className="flex gap-2">
          <button type="button" aria-pressed={lang === 'curl'} className={lang === 'curl' ? 'btn-primary' : 'btn-secondary'} onClick={() => setLang('curl')}>
            curl
          </button>
          <button type="button" aria-pressed={lang === 'ts'} className={lang === 'ts' ? 'btn-primary' : 'btn-secondary'} onClick={() => setLang('ts')}>
            TypeScript
          </button>
        </div>
        {lang === 'curl' ? <Code label="List your campaigns" code={curl} /> : <Code label="Campaigns and their delivery" code={typescript} />}
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>Errors always come as {'{"success": false, "message", "errors"}'} with the HTTP status; a missing, unknown or revoked key answers 401.</li>
          <li>A read key may call the GETs, the quote and the spot search; anything that changes data needs a read-and-write key (403 otherwise).</li>
          <li>
            Each key has a per-minute limit: the <code>RateLimit</code> and <code>RateLimit-Policy</code> headers tell what is left, and a 429 says when to retry (
            <code>Retry-After</code>).
          </li>
          <li>Lists take ?page=&amp;page_size= and answer {'{"items", "total", "page", "page_size"}'}.</li>
        </ul>
      </section>

      <section aria-labelledby="reference" className="space-y-3">
        <h2 id="reference" className="text-xl font-semibold text-slate-900">
          Reference
        </h2>
        <p className="text-sm text-slate-700">
          The public API, call by call. The full document also names the routes outside <code>/api/v1</code>, which serve the web app with its session cookie.
        </p>
        <Suspense fallback={<Spinner label="Loading the reference" />}>
          <Reference url="/api/openapi.json" />
        </Suspense>
      </section>
    </main>
  )
}
