// The one way the web app talks to the server (docs/api.md "Conventions"): relative URLs, the
// session cookie, the CSRF header on every call and the error envelope unwrapped into ApiError.

/** Shown when the server gives no message of its own (B §8). */
export const MSG_UNEXPECTED = 'A unexpected error has occurred.'

/** An error as the server reports it: `{success: false, message, errors}` plus the HTTP status. */
export interface ApiError {
  /** HTTP status, or 0 when the server could not be reached. */
  status: number
  message: string
  /** Field name → message, for inline form errors. */
  errors: Record<string, string>
  /** A machine-readable reason when the server gives one (a gateway's card error code, say). */
  code?: string
  /**
   * The whole answer of a 200 that reports `success: false`, when it carries more than a message
   * (a failed exam's score and points, B §3 Exam result).
   */
  body?: unknown
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RequestArgs {
  /** A relative path such as `/users/loggedin`. */
  url: string
  method?: HttpMethod
  /** A plain value is sent as JSON; FormData is sent as multipart. */
  body?: unknown
  params?: Record<string, string | number | boolean | null | undefined>
  /**
   * Keep the answer in the browser's cache and ask the server whether it changed (If-None-Match),
   * for a large public answer tagged with an ETag (the faces). Every other call is never stored.
   */
  revalidate?: boolean
}

export type RequestResult<T> = { data: T; error?: undefined } | { error: ApiError; data?: undefined }

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).status === 'number' &&
    typeof (value as ApiError).message === 'string'
  )
}

/** The message to show for a failed call: the server's, or the spec's generic one. */
export function errorMessage(error: unknown): string {
  return isApiError(error) && error.message ? error.message : MSG_UNEXPECTED
}

export function buildUrl(url: string, params?: RequestArgs['params']): string {
  if (!params) return url
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.append(key, String(value))
  }
  const qs = query.toString()
  if (!qs) return url
  return url + (url.includes('?') ? '&' : '?') + qs
}

function toErrorRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {}
  const out: Record<string, string> = {}
  for (const [key, message] of Object.entries(value)) {
    if (typeof message === 'string') out[key] = message
  }
  return out
}

/** Turns a failed answer (status and parsed body) into an ApiError. */
export function toApiError(status: number, body: unknown): ApiError {
  if (typeof body === 'object' && body !== null) {
    const envelope = body as { message?: unknown; errors?: unknown; code?: unknown }
    return {
      status,
      message: typeof envelope.message === 'string' && envelope.message ? envelope.message : MSG_UNEXPECTED,
      errors: toErrorRecord(envelope.errors),
      ...(typeof envelope.code === 'string' && envelope.code ? { code: envelope.code } : {}),
    }
  }
  return { status, message: MSG_UNEXPECTED, errors: {} }
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null
  const text = await response.text()
  if (!text) return null
  const type = response.headers.get('Content-Type') ?? ''
  if (type.includes('json') || /^[[{]/.test(text.trim())) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  return text
}

/** A GET the page can start before its code runs: what send() would ask, as plain data. */
export type EarlyRequest = Omit<RequestArgs, 'method' | 'body'>

// GETs started before the page could ask for them, by URL, until send() takes them: the response
// only, its body read and parsed when taken (not in whatever task it arrived in), or earlier when
// the page reads it ahead (readEarly). Started by the prerendered page's own HTML (earlyFetches;
// scripts/prerender.mjs), before any of the app's code has run, or by sendEarly.
interface EarlyAnswer {
  response: Promise<Response | null>
  /** The body read, once: what send() then answers, the same object. */
  result?: Promise<RequestResult<unknown>>
}
const early = new Map<string, EarlyAnswer>()
// An early answer not taken by then is dropped: the page went elsewhere, and a later ask must not get old data.
const EARLY_KEPT_MS = 30_000

declare global {
  interface Window {
    /** The GETs the prerendered page's HTML started, by URL (scripts/prerender.mjs). */
    __marqueeEarly?: Record<string, Promise<Response | null>>
  }
}

function keepEarly(url: string, response: Promise<Response | null>): void {
  const answer: EarlyAnswer = { response }
  early.set(url, answer)
  window.setTimeout(() => {
    if (early.get(url) === answer) early.delete(url)
  }, EARLY_KEPT_MS)
}

if (typeof window !== 'undefined' && window.__marqueeEarly) {
  for (const [url, started] of Object.entries(window.__marqueeEarly)) keepEarly(url, started)
  delete window.__marqueeEarly
}

/**
 * Starts a GET now; the next send() of the same URL takes its answer instead of asking again. For a
 * prerendered page's first data, asked for before the page hydrates (issue 30, /locations' faces):
 * kept out of the store until the page's own query asks, so that no store update lands in the
 * middle of the hydration. Nothing when the page's HTML has started it already.
 */
export function sendEarly(args: EarlyRequest): void {
  const url = buildUrl(args.url, args.params)
  if (!early.has(url)) keepEarly(url, startFetch(args))
}

/**
 * The answer of a GET started early, read now and left for send(), which answers the same result
 * (the same parsed body); undefined when none was started. For work on the data that need not
 * wait for the store: /locations clusters its first faces while the page hydrates.
 */
export function readEarly<T>(args: EarlyRequest): Promise<RequestResult<T>> | undefined {
  const answer = early.get(buildUrl(args.url, args.params))
  if (!answer) return undefined
  answer.result ??= answer.response.then((response) => readResult<unknown>(response))
  return answer.result as Promise<RequestResult<T>>
}

/**
 * The URL and fetch options of each request, exactly as send() would ask for it, for the
 * prerendered page's HTML to start them (scripts/prerender.mjs): send() then takes the answers.
 */
export function earlyFetches(requests: readonly EarlyRequest[]): [string, RequestInit][] {
  return requests.map((args) => [buildUrl(args.url, args.params), fetchOptions(args)])
}

/** Sends one call. Never throws: a failure comes back as `{error}`. */
export async function send<T>(args: RequestArgs): Promise<RequestResult<T>> {
  if ((args.method ?? 'GET') === 'GET' && args.body === undefined) {
    const url = buildUrl(args.url, args.params)
    const answer = early.get(url)
    if (answer) {
      early.delete(url)
      return (answer.result as Promise<RequestResult<T>> | undefined) ?? readResult<T>(await answer.response)
    }
  }
  return readResult<T>(await startFetch(args))
}

/** The call's response, or null when there was none (the network failed). */
function startFetch(args: RequestArgs): Promise<Response | null> {
  return fetch(buildUrl(args.url, args.params), fetchOptions(args)).catch(() => null)
}

/** The fetch options of a call: plain data (headers as a record), so a page's HTML can hold them. */
function fetchOptions(args: RequestArgs): RequestInit {
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    'Cache-Control': 'no-cache',
    Accept: 'application/json',
  }
  let body: BodyInit | undefined
  if (args.body instanceof FormData) {
    body = args.body
  } else if (args.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(args.body)
  }
  return {
    method: args.method ?? 'GET',
    headers,
    ...(body === undefined ? {} : { body }),
    credentials: 'same-origin',
    cache: args.revalidate ? 'no-cache' : 'no-store',
  }
}

async function readResult<T>(response: Response | null): Promise<RequestResult<T>> {
  if (!response) return { error: { status: 0, message: MSG_UNEXPECTED, errors: {} } }
  let parsed: unknown
  try {
    parsed = await readBody(response)
  } catch {
    parsed = null
  }
  if (!response.ok) return { error: toApiError(response.status, parsed) }
  // Some legacy-style answers report failure in a 200 body.
  if (typeof parsed === 'object' && parsed !== null && (parsed as { success?: unknown }).success === false) {
    return { error: { ...toApiError(response.status, parsed), body: parsed } }
  }
  return { data: parsed as T }
}
