import { useState } from 'react'
import { Link } from 'react-router'
import DevelopersFrame from '../DevelopersFrame'
import Reference from '../Reference'
import { verifyGo, verifyNode, verifyPython, webhookBody, webhookEvents } from '../webhookDocs'

const quickStart = (origin: string) => ({
  curl: `curl ${origin}/api/v1/campaigns \\
  -H "Authorization: Bearer $MARQUEE_API_KEY"`,
  ts: `const base = '${origin}/api/v1'
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
if (!res.ok) throw new Error((await res.json()).message) // the one error envelope`,
})

function Code({ label, code }: { label: string; code: string }) {
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 text-sm font-medium text-slate-800">{label}</figcaption>
      <pre tabIndex={0} aria-label={label} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </figure>
  )
}

/** Buttons that pick one of several code samples (aria-pressed toggles). */
function Tabs<T extends string>({ label, options, value, onChange }: { label: string; options: [T, string][]; value: T; onChange: (v: T) => void }) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-2">
      {options.map(([v, text]) => (
        <button key={v} type="button" aria-pressed={value === v} className={value === v ? 'btn-primary' : 'btn-secondary'} onClick={() => onChange(v)}>
          {text}
        </button>
      ))}
    </div>
  )
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="scroll-mt-20 space-y-3">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  )
}

const CONTENTS = [
  ['quick-start', 'Quick start'],
  ['authentication', 'Keys and scopes'],
  ['errors', 'Errors'],
  ['rate-limits', 'Rate limits'],
  ['pagination', 'Lists'],
  ['webhooks', 'Webhooks'],
  ['reference', 'Reference'],
] as const

const inlineCode = 'rounded bg-slate-100 px-1 text-slate-900'

/** /developers: the API's guide and reference, readable without signing in. */
export default function Developers() {
  const origin = typeof window === 'undefined' ? '' : window.location.origin
  const [lang, setLang] = useState<'curl' | 'ts'>('curl')
  const [verifyLang, setVerifyLang] = useState<'go' | 'node' | 'python'>('go')
  const samples = quickStart(origin)
  return (
    <DevelopersFrame>
      <div className="mx-auto max-w-5xl space-y-10 px-4 py-8 sm:px-6">
        <header className="space-y-2">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">Marquee for developers</p>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">The Marquee API</h1>
          <p className="max-w-3xl text-slate-800">
            Create campaigns, follow their delivery week by week and face by face, and download reports from your own tools. This server's API is at{' '}
            <code className={inlineCode}>{origin}/api/v1</code>; its machine-readable description is{' '}
            <a href="/api/openapi.json" className="link">
              {origin}/api/openapi.json
            </a>{' '}
            (OpenAPI 3.1: generate a client from it).
          </p>
          <nav aria-label="On this page">
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {CONTENTS.map(([id, title]) => (
                <li key={id}>
                  <a href={`#${id}`} className="link">
                    {title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>

        <Section id="quick-start" title="Quick start">
          <p className="text-sm text-slate-800">
            Make a key in{' '}
            <Link to="/settings?tab=api" className="link">
              Settings → API
            </Link>{' '}
            and send it as <code className={inlineCode}>Authorization: Bearer &lt;key&gt;</code>.
          </p>
          <Tabs
            label="Example language"
            options={[
              ['curl', 'curl'],
              ['ts', 'TypeScript'],
            ]}
            value={lang}
            onChange={setLang}
          />
          {lang === 'curl' ? <Code label="List your campaigns" code={samples.curl} /> : <Code label="Campaigns and their delivery" code={samples.ts} />}
        </Section>

        <Section id="authentication" title="Keys and scopes">
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
            <li>A key acts as a user of your company: it reaches your company's campaigns, creatives and reports, never another's (they answer 404).</li>
            <li>A read key may call the GETs, the quote and the spot search; anything that changes data needs a read-and-write key (403 otherwise).</li>
            <li>A missing, unknown or revoked key answers 401. Revoke a key in Settings → API the moment it leaks.</li>
            <li>
              <code className={inlineCode}>POST /api/v1/campaigns</code> needs an <code className={inlineCode}>Idempotency-Key</code> header: a retry with the same key answers the first call's
              result instead of creating a second campaign.
            </li>
          </ul>
        </Section>

        <Section id="errors" title="Errors">
          <p className="text-sm text-slate-800">Every failure answers one envelope, with the HTTP status:</p>
          <Code label="The error envelope" code={`{"success": false, "message": "Please choose at least one location.", "errors": {"places_checked": "…"}, "code": "…"}`} />
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Error statuses">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Error statuses</caption>
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className="py-1 pr-3">
                    Status
                  </th>
                  <th scope="col" className="py-1">
                    Meaning
                  </th>
                </tr>
              </thead>
              <tbody className="text-slate-800">
                {[
                  ['400', 'The request is not valid: message says why, errors names the fields.'],
                  ['401', 'No valid API key.'],
                  ['402', 'A card was declined: code holds the gateway reason.'],
                  ['403', "The key's scope does not allow the call."],
                  ['404', 'Not found, or not your company\u2019s.'],
                  ['409', 'A conflict. A campaign creation whose faces were taken meanwhile answers the conflict draft instead: {campaign, params}, to resolve.'],
                  ['413, 415', 'The body is too large, or not JSON.'],
                  ['429', 'Too many calls: wait Retry-After seconds.'],
                  ['5xx', 'Our fault; retry later (with the same Idempotency-Key for a creation).'],
                ].map(([code, meaning]) => (
                  <tr key={code} className="border-b border-slate-100 align-top">
                    <td className="py-1 pr-3 font-mono">{code}</td>
                    <td className="py-1">{meaning}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>

        <Section id="rate-limits" title="Rate limits">
          <p className="text-sm text-slate-800">
            Each key may make a fixed number of calls a minute (120 unless this server sets otherwise), counted in one-minute windows. Every answer says what is left:
          </p>
          <Code label="The rate limit headers" code={`RateLimit-Policy: "per-key";q=120;w=60\nRateLimit: "per-key";r=117;t=42`} />
          <p className="text-sm text-slate-800">
            <code className={inlineCode}>r</code> is what is left in the window and <code className={inlineCode}>t</code> the seconds until it ends. Past the limit the answer is 429 with{' '}
            <code className={inlineCode}>Retry-After</code>.
          </p>
        </Section>

        <Section id="pagination" title="Lists">
          <p className="text-sm text-slate-800">
            Lists take <code className={inlineCode}>page</code>, <code className={inlineCode}>page_size</code>, <code className={inlineCode}>sort</code> (a field, <code className={inlineCode}>-</code>{' '}
            for descending) and <code className={inlineCode}>q</code>, plus their filters, and answer{' '}
            <code className={inlineCode}>{'{"items": [], "total": n, "page": p, "page_size": s}'}</code>. The reference below lists each one's sizes, fields and filters. Money is a number of dollars
            with at most two decimals (read it as a double, never a float32); dates are <code className={inlineCode}>YYYY-MM-DD</code>.
          </p>
        </Section>

        <Section id="webhooks" title="Webhooks">
          <p className="text-sm text-slate-800">
            Add an endpoint in{' '}
            <Link to="/settings?tab=webhooks" className="link">
              Settings → Webhooks
            </Link>{' '}
            and Marquee posts a signed JSON event to it when something happens to your campaigns. Delivery is at least once: de-duplicate on the event's <code className={inlineCode}>id</code>, and
            order by <code className={inlineCode}>created</code>. A failed delivery is retried for 24 hours.
          </p>
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Webhook events">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Webhook events</caption>
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className="py-1 pr-3">
                    Event
                  </th>
                  <th scope="col" className="py-1 pr-3">
                    When
                  </th>
                  <th scope="col" className="py-1">
                    data
                  </th>
                </tr>
              </thead>
              <tbody className="text-slate-800">
                {webhookEvents.map((e) => (
                  <tr key={e.type} className="border-b border-slate-100 align-top">
                    <td className="py-1 pr-3 font-mono">{e.type}</td>
                    <td className="py-1 pr-3">{e.when}</td>
                    <td className="py-1 font-mono">{e.data}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Code label="A delivery" code={webhookBody} />
          <h3 className="text-lg font-semibold text-slate-900">Verifying Marquee-Signature</h3>
          <p className="text-sm text-slate-800">
            <code className={inlineCode}>Marquee-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256(secret, "&lt;t&gt;.&lt;raw body&gt;")&gt;</code>, with the endpoint's signing secret
            (whsec_…). Verify the raw body before parsing it, compare in constant time, and refuse a <code className={inlineCode}>t</code> more than 5 minutes from your clock.
          </p>
          <Tabs
            label="Verification language"
            options={[
              ['go', 'Go'],
              ['node', 'Node'],
              ['python', 'Python'],
            ]}
            value={verifyLang}
            onChange={setVerifyLang}
          />
          <Code label={`Verify in ${{ go: 'Go', node: 'Node', python: 'Python' }[verifyLang]}`} code={{ go: verifyGo, node: verifyNode, python: verifyPython }[verifyLang]} />
        </Section>

        <Section id="reference" title="Reference">
          <p className="text-sm text-slate-800">
            The public API, call by call, read from <a href="/api/openapi.json" className="link">the OpenAPI document</a>. The document also names the routes outside{' '}
            <code className={inlineCode}>/api/v1</code>, which serve the web app with its session cookie.
          </p>
          <Reference url="/api/openapi.json" origin={origin} />
        </Section>
      </div>
    </DevelopersFrame>
  )
}
