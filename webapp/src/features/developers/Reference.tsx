import { useEffect, useState } from 'react'

/* The public API's reference, rendered from the served OpenAPI document (/api/openapi.json): the
 * operations under /api/v1 with their parameters, bodies, answers and examples. It is built from
 * the same document the server validates its tests against, so the page cannot drift from it; the
 * examples name this server. */

interface Schema {
  $ref?: string
  type?: string | string[]
  format?: string
  enum?: unknown[]
  items?: Schema
  anyOf?: Schema[]
  allOf?: Schema[]
  properties?: Record<string, Schema>
  required?: string[]
  description?: string
  maxLength?: number
  minimum?: number
  maximum?: number
  multipleOf?: number
  default?: unknown
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  description?: string
  schema: Schema
}

interface Media {
  schema?: Schema
  example?: unknown
}

interface Response {
  $ref?: string
  description?: string
  content?: Record<string, Media>
}

interface Operation {
  summary: string
  operationId: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, Media> }
  responses: Record<string, Response>
  'x-scope'?: string
  'x-codeSamples'?: { lang: string; label: string; source: string }[]
}

export interface OpenAPIDocument {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema>; responses: Record<string, Response> }
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1)

/** A schema in a few words: "Campaign", "array of Market", "string (date)", "one of a, b". */
export function describe(s: Schema | undefined): string {
  if (!s) return 'any'
  if (s.$ref) return refName(s.$ref)
  if (s.anyOf) return s.anyOf.map(describe).join(' or ')
  if (s.allOf) return s.allOf.map(describe).join(' and ')
  const types = (Array.isArray(s.type) ? s.type : [s.type ?? 'any']).filter((t) => t !== 'null')
  const nullable = Array.isArray(s.type) && s.type.includes('null') && types.length < 6
  let out = types.length > 4 ? 'any' : types.join(' or ')
  if (out === 'array') out = `array of ${describe(s.items)}`
  if (s.multipleOf === 0.01) out = 'money (number, 2 decimals)'
  else if (s.format && s.format !== 'int64' && s.format !== 'int32' && s.format !== 'double') out += ` (${s.format})`
  const limits: string[] = []
  if (s.enum) limits.push(`one of ${s.enum.join(', ')}`)
  if (s.maxLength !== undefined) limits.push(`at most ${s.maxLength} characters`)
  if (s.minimum !== undefined) limits.push(`from ${s.minimum}`)
  if (s.maximum !== undefined) limits.push(`to ${s.maximum}`)
  if (s.default !== undefined) limits.push(`default ${String(s.default)}`)
  if (limits.length) out += `; ${limits.join('; ')}`
  return nullable ? `${out}, or null` : out
}

function Fields({ doc, schema }: { doc: OpenAPIDocument; schema?: Schema }) {
  const target = schema?.$ref ? doc.components.schemas[refName(schema.$ref)] : schema?.items?.$ref ? doc.components.schemas[refName(schema.items.$ref)] : schema
  if (!target?.properties) return null
  const required = new Set(target.required ?? [])
  return (
    <details className="mt-1 text-sm">
      <summary className="cursor-pointer text-brand-700">Fields of {describe(schema)}</summary>
      <ul className="mt-1 space-y-0.5 pl-4">
        {Object.entries(target.properties).map(([name, s]) => (
          <li key={name}>
            <code className="font-semibold">{name}</code>
            {required.has(name) ? '' : ' (optional)'}: {describe(s)}
            {s.description ? <span className="text-slate-700"> — {s.description}</span> : null}
          </li>
        ))}
      </ul>
    </details>
  )
}

const methodColour: Record<string, string> = {
  get: 'bg-emerald-800',
  post: 'bg-brand-700',
  put: 'bg-amber-800',
  delete: 'bg-red-800',
}

function OperationView({ doc, path, method, op, origin }: { doc: OpenAPIDocument; path: string; method: string; op: Operation; origin: string }) {
  const [lang, setLang] = useState(0)
  const samples = op['x-codeSamples'] ?? []
  const sample = samples[lang] ?? samples[0]
  const body = op.requestBody?.content
  const json = body?.['application/json']
  return (
    <article id={op.operationId} aria-labelledby={`${op.operationId}-title`} className="space-y-3 rounded-xl border border-slate-200 p-4">
      <h3 id={`${op.operationId}-title`} className="text-lg font-semibold text-slate-900">
        {op.summary}
      </h3>
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className={`rounded px-2 py-0.5 font-mono font-semibold text-white uppercase ${methodColour[method] ?? 'bg-slate-800'}`}>{method}</span>
        <code className="break-all">{path}</code>
        {op['x-scope'] && <span className="rounded bg-slate-100 px-2 py-0.5 text-slate-800">key scope: {op['x-scope']}</span>}
      </p>
      {op.parameters && op.parameters.length > 0 && (
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`Parameters of ${op.summary}`}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Parameters of {op.summary}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-800">
                <th scope="col" className="py-1 pr-3">
                  Parameter
                </th>
                <th scope="col" className="py-1 pr-3">
                  In
                </th>
                <th scope="col" className="py-1">
                  Value
                </th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`} className="border-b border-slate-100 align-top">
                  <td className="py-1 pr-3">
                    <code>{p.name}</code>
                    {p.required ? ' (required)' : ''}
                  </td>
                  <td className="py-1 pr-3">{p.in}</td>
                  <td className="py-1">
                    {describe(p.schema)}
                    {p.description ? <span className="block text-slate-700">{p.description}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {body && (
        <div className="text-sm">
          <p>
            <span className="font-medium">Body:</span> {Object.keys(body).join(' or ')}
            {json?.schema ? `, ${describe(json.schema)}` : ''}
          </p>
          {json && <Fields doc={doc} schema={json.schema} />}
        </div>
      )}
      <div className="text-sm">
        <p className="font-medium">Answers</p>
        <ul className="space-y-1 pl-4">
          {Object.entries(op.responses).map(([code, r]) => {
            const res = r.$ref ? doc.components.responses[refName(r.$ref)] : r
            const media = res?.content ? Object.entries(res.content)[0] : undefined
            return (
              <li key={code}>
                <code className="font-semibold">{code}</code> {res?.description}
                {media && media[0] !== 'application/json' ? ` (${Object.keys(res?.content ?? {}).join(', ')})` : ''}
                {media && media[0] === 'application/json' && code.startsWith('2') ? (
                  <>
                    {': '}
                    {describe(media[1].schema)}
                    <Fields doc={doc} schema={media[1].schema} />
                  </>
                ) : null}
              </li>
            )
          })}
        </ul>
      </div>
      {sample && (
        <div>
          <div role="group" aria-label={`Example language for ${op.summary}`} className="mb-2 flex gap-2">
            {samples.map((s, i) => (
              <button key={s.lang} type="button" aria-pressed={lang === i} className={lang === i ? 'btn-primary' : 'btn-secondary'} onClick={() => setLang(i)}>
                {s.label}
              </button>
            ))}
          </div>
          <pre tabIndex={0} aria-label={`${sample.label} example`} className="overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm leading-relaxed text-slate-100">
            <code>{sample.source.replaceAll('$MARQUEE_URL', origin).replaceAll('${process.env.MARQUEE_URL}', origin)}</code>
          </pre>
        </div>
      )}
    </article>
  )
}

/** The operations under /api/v1, in the document's order of paths. */
export function publicOperations(doc: OpenAPIDocument): { path: string; method: string; op: Operation }[] {
  const out: { path: string; method: string; op: Operation }[] = []
  for (const path of Object.keys(doc.paths).sort()) {
    if (!path.startsWith('/api/v1/')) continue
    for (const method of ['get', 'post', 'put', 'delete']) {
      const op = doc.paths[path]?.[method]
      if (op) out.push({ path, method, op })
    }
  }
  return out
}

export default function Reference({ url, origin }: { url: string; origin: string }) {
  const [doc, setDoc] = useState<OpenAPIDocument | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    fetch(url, { headers: { Accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<OpenAPIDocument>) : Promise.reject(new Error(String(res.status)))))
      .then((d) => live && setDoc(d))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [url])
  if (failed)
    return (
      <p role="alert" className="text-sm text-red-700">
        Sorry! The reference could not be loaded. Try again in a moment.
      </p>
    )
  if (!doc) return <p className="text-sm text-slate-700">Loading the reference…</p>
  const ops = publicOperations(doc)
  return (
    <div className="space-y-4" data-testid="api-reference">
      <nav aria-label="Calls of the public API">
        <ul className="grid gap-1 text-sm sm:grid-cols-2">
          {ops.map(({ path, method, op }) => (
            <li key={op.operationId}>
              <a href={`#${op.operationId}`} className="link">
                <span className="font-mono uppercase">{method}</span> {path}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {ops.map(({ path, method, op }) => (
        <OperationView key={op.operationId} doc={doc} path={path} method={method} op={op} origin={origin} />
      ))}
    </div>
  )
}
