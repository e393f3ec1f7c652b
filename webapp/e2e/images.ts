import type { Page } from '@playwright/test'
import { deflateSync } from 'node:zlib'

// Real image files for the upload journeys, made on the spot: a PNG encoded here, a JPEG drawn by
// the browser's own encoder.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A width x height RGB PNG with a diagonal gradient. */
export function pngImage(width: number, height: number): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const rows = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y += 1) {
    const row = y * (width * 3 + 1)
    for (let x = 0; x < width; x += 1) {
      rows.set([(x * 255) / width, (y * 255) / height, 160], row + 1 + x * 3)
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The width and height in the IHDR of the first PNG found in `bytes` (a multipart body too). */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const at = bytes.indexOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  if (at < 0 || bytes.toString('ascii', at + 12, at + 16) !== 'IHDR') return null
  return { width: bytes.readUInt32BE(at + 16), height: bytes.readUInt32BE(at + 20) }
}

/** A JPEG drawn by the browser's canvas encoder (the script runs in the page, hence a string). */
export async function jpegImage(page: Page, width: number, height: number, label: string): Promise<Buffer> {
  const script = `(() => {
    const canvas = document.createElement('canvas')
    canvas.width = ${width}
    canvas.height = ${height}
    const ctx = canvas.getContext('2d')
    ctx.fillStyle = '#1e3a8a'
    ctx.fillRect(0, 0, ${width}, ${height})
    ctx.fillStyle = '#fbbf24'
    ctx.font = '${Math.round(height / 4)}px sans-serif'
    ctx.fillText(${JSON.stringify(label)}, ${width / 20}, ${height / 2})
    return canvas.toDataURL('image/jpeg', 0.9)
  })()`
  const dataUrl = (await page.evaluate(script)) as string
  return Buffer.from(dataUrl.split(',')[1]!, 'base64')
}
