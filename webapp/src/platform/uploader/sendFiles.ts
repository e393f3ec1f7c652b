import { buildUrl, type RequestArgs } from '../http'
import { uploadErrorMessage } from './uploadRules'

// Uploads go through XMLHttpRequest, not fetch: only XHR reports upload progress
// (`xhr.upload.onprogress`), which the progress bar of A §5 needs.

/** What the upload calls answer for each file (docs/api.md "Uploads"). */
export interface UploadedFile {
  filename: string
  originalname: string
  path: string
}

export interface SendFilesOptions {
  url: string
  params?: RequestArgs['params']
  /** The multipart field: `file` for single-file kinds, `files` (repeated) for the others. */
  field: 'file' | 'files'
  files: Blob[]
  /** Names for Blobs that are not Files (the builder's PNG). */
  fileNames?: string[]
  /** 0..1 as the bytes go out. */
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
  /**
   * What a success answers: the stored files (the upload calls, the default), or a message (a call
   * that stores the files and attaches them itself, such as a week's proofs); then the sent files'
   * names stand for the answer.
   */
  answer?: 'files' | 'message'
}

export type SendFilesResult =
  | { ok: true; files: UploadedFile[] }
  | { ok: false; status: number; message: string; canceled: boolean }

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && typeof (value as UploadedFile).path === 'string'
}

/** Sends files as multipart with the session cookie and the CSRF header; never throws. */
export function sendFiles({ url, params, field, files, fileNames, onProgress, signal, answer = 'files' }: SendFilesOptions): Promise<SendFilesResult> {
  return new Promise((resolve) => {
    const form = new FormData()
    files.forEach((blob, i) => {
      const name = fileNames?.[i] ?? (blob instanceof File ? blob.name : `upload-${i}`)
      form.append(field, blob, name)
    })
    const xhr = new XMLHttpRequest()
    xhr.open('POST', buildUrl(url, params))
    xhr.withCredentials = true
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest')
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total)
    }
    xhr.onload = () => {
      const body = parse(xhr.responseText)
      if (xhr.status >= 200 && xhr.status < 300 && answer === 'message') {
        onProgress?.(1)
        const names = files.map((blob, i) => fileNames?.[i] ?? (blob instanceof File ? blob.name : `upload-${i}`))
        resolve({ ok: true, files: names.map((name) => ({ filename: name, originalname: name, path: '' })) })
        return
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const list = Array.isArray(body) ? body : [body]
        if (list.every(isUploadedFile)) {
          onProgress?.(1)
          resolve({ ok: true, files: list })
          return
        }
      }
      const serverMessage = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : null
      resolve({
        ok: false,
        status: xhr.status,
        message: uploadErrorMessage(xhr.status, typeof serverMessage === 'string' ? serverMessage : null),
        canceled: false,
      })
    }
    xhr.onerror = () => resolve({ ok: false, status: 0, message: uploadErrorMessage(0, null), canceled: false })
    xhr.onabort = () => resolve({ ok: false, status: 0, message: 'Upload canceled.', canceled: true })
    if (signal) {
      if (signal.aborted) {
        resolve({ ok: false, status: 0, message: 'Upload canceled.', canceled: true })
        return
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true })
    }
    xhr.send(form)
  })
}
