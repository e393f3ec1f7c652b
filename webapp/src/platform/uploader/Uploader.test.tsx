import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { UploadedFile } from './sendFiles'
import Uploader from './Uploader'
import { MSG_UPLOAD_UNEXPECTED, MSG_WRONG_TYPE } from './uploadRules'

// A stand-in for the browser's XMLHttpRequest at the network boundary: the test decides when the
// bytes go out and what the server answers. The Uploader and sendFiles run for real.
class FakeXhr {
  static last: FakeXhr | null = null
  static sent = 0
  method = ''
  url = ''
  headers: Record<string, string> = {}
  withCredentials = false
  status = 0
  responseText = ''
  body: FormData | null = null
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  constructor() {
    FakeXhr.last = this
  }
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: FormData) {
    FakeXhr.sent += 1
    this.body = body
  }
  abort() {
    this.onabort?.()
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total })
  }
  answer(status: number, body: unknown) {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.onload?.()
  }
}

function setup(kind: 'creative' | 'creativeLibrary' = 'creative') {
  FakeXhr.last = null
  FakeXhr.sent = 0
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  const uploaded = vi.fn<(files: UploadedFile[]) => void>()
  const settled = vi.fn<() => void>()
  render(<Uploader kind={kind} url="/upload_creative" params={{ width: 1400, height: 400 }} label="Creative file" onUploaded={uploaded} onSettled={settled} />)
  const input = screen.getByLabelText('Creative file') as HTMLInputElement
  return { uploaded, settled, input, user: userEvent.setup({ applyAccept: false }) }
}

const jpeg = (name = 'ad.jpg', size = 2048) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' })

afterEach(() => vi.unstubAllGlobals())

describe('Uploader', () => {
  it('refuses a wrong type before sending anything', async () => {
    const { input, user } = setup()
    await user.upload(input, new File(['%PDF'], 'brief.pdf', { type: 'application/pdf' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(`brief.pdf: ${MSG_WRONG_TYPE}`)
    expect(FakeXhr.sent).toBe(0)
  })

  it('refuses 21 files at once', async () => {
    const { input, user } = setup('creativeLibrary')
    await user.upload(input, Array.from({ length: 21 }, (_, i) => jpeg(`ad${i}.jpg`)))
    expect(await screen.findByText('You can upload at most 20 files at once.')).toBeInTheDocument()
    expect(FakeXhr.sent).toBe(0)
  })

  it('sends with the CSRF header, shows the progress and reports the stored file', async () => {
    const { input, user, uploaded, settled } = setup()
    await user.upload(input, jpeg())
    const xhr = FakeXhr.last!
    expect(settled).not.toHaveBeenCalled() // a form still waits: the file is on its way
    expect(xhr.method).toBe('POST')
    expect(xhr.url).toBe('/upload_creative?width=1400&height=400')
    expect(xhr.headers['X-Requested-With']).toBe('XMLHttpRequest')
    expect(xhr.withCredentials).toBe(true)
    expect((xhr.body!.get('file') as File).name).toBe('ad.jpg')

    act(() => xhr.progress(512, 2048))
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '25')
    act(() => xhr.answer(200, { filename: 'k.jpg', originalname: 'ad.jpg', path: 'creative/k.jpg' }))
    expect(await screen.findByText('Uploaded ad.jpg')).toBeInTheDocument()
    expect(uploaded).toHaveBeenCalledWith([{ filename: 'k.jpg', originalname: 'ad.jpg', path: 'creative/k.jpg' }])
    expect(settled).toHaveBeenCalledTimes(1)
  })

  it('previews the uploaded image (issue 12 item 27)', async () => {
    vi.stubGlobal('URL', Object.assign(Object.create(URL), { createObjectURL: () => 'blob:preview-ad', revokeObjectURL: vi.fn() }))
    const { input, user } = setup()
    await user.upload(input, jpeg())
    act(() => FakeXhr.last!.answer(200, { filename: 'k.jpg', originalname: 'ad.jpg', path: 'creative/k.jpg' }))
    expect(await screen.findByRole('img', { name: 'Preview of ad.jpg' })).toHaveAttribute('src', 'blob:preview-ad')
  })

  it.each([
    [422, 'The image could not be read. Please check the file and try again.', 'The image could not be read. Please check the file and try again.'],
    [413, 'The file is too large: a creative can be at most 10 MB.', MSG_UPLOAD_UNEXPECTED],
    [500, 'Internal error.', MSG_UPLOAD_UNEXPECTED],
  ])('answers a %i by the A §8 rule', async (status, message, shown) => {
    const { input, user, uploaded, settled } = setup()
    await user.upload(input, jpeg())
    act(() => FakeXhr.last!.answer(status, { success: false, message }))
    expect(await screen.findByRole('alert')).toHaveTextContent(shown)
    expect(uploaded).not.toHaveBeenCalled()
    expect(settled).toHaveBeenCalledTimes(1)
  })

  it('cancels an upload under way', async () => {
    const { input, user, uploaded, settled } = setup()
    await user.upload(input, jpeg())
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }))
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument()
    expect(settled).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(uploaded).not.toHaveBeenCalled()
  })
})
