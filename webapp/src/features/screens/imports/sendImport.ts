import { buildUrl } from '../../../platform/http'
import type { ImportReport } from '../../../platform/api-types/screens'

// The upload goes through XMLHttpRequest, not fetch: only XHR reports upload progress, and an
// export may be tens of megabytes.

export type SendImportResult = { ok: true; report: ImportReport } | { ok: false; status: number; message: string }

export interface SendImportOptions {
  file: File
  format: '' | 'xibo' | 'csv'
  tz: string
  onProgress?: (fraction: number) => void
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

/** A readable message for a failed upload: the server's, else one for its status. */
export function importErrorMessage(status: number, serverMessage: string | null): string {
  if (serverMessage) return serverMessage
  if (status === 413) return 'The file is larger than 50 MiB; split the export by date.'
  if (status === 0) return 'The upload did not reach the server. Check the connection and try again.'
  return 'The import failed. Please try again.'
}

/** Posts the file as multipart (part "file") with the session cookie and the CSRF header; never throws. */
export function sendImport({ file, format, tz, onProgress }: SendImportOptions): Promise<SendImportResult> {
  return new Promise((resolve) => {
    const form = new FormData()
    form.append('file', file, file.name)
    const params: Record<string, string> = {}
    if (format) params.format = format
    if (tz) params.tz = tz
    const xhr = new XMLHttpRequest()
    xhr.open('POST', buildUrl('/api/admin/screens/imports', params))
    xhr.withCredentials = true
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest')
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total)
    }
    xhr.onload = () => {
      const body = parse(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300 && typeof body === 'object' && body !== null && 'accepted' in body) {
        onProgress?.(1)
        resolve({ ok: true, report: body as ImportReport })
        return
      }
      const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : null
      resolve({ ok: false, status: xhr.status, message: importErrorMessage(xhr.status, typeof message === 'string' ? message : null) })
    }
    xhr.onerror = () => resolve({ ok: false, status: 0, message: importErrorMessage(0, null) })
    xhr.send(form)
  })
}
