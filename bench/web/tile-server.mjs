// A stand-in tile server for the browser benchmarks (lighthouse.mjs, main-thread-trace.mjs): this
// machine has no internet. In production the map's tiles come from TILE_URL (OpenStreetMap by
// default). Offline each tile request fails, which Chromium reports in the console (and Lighthouse
// as a best-practices error) before the map falls back to its embedded basemap; a real deployment
// does not see that. The stand-in answers every tile with a plain 256x256 PNG (about 1 KiB; a real
// tile is 5 to 30 KiB, third-party bytes that do not block the first paint).
import { createServer } from 'node:http'
import { deflateSync } from 'node:zlib'

function pngTile() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (buf) => {
    let c = 0xffffffff
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type, body) => {
    const head = Buffer.alloc(8)
    head.writeUInt32BE(body.length, 0)
    head.write(type, 4, 'ascii')
    const tail = Buffer.alloc(4)
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), body])), 0)
    return Buffer.concat([head, body, tail])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(256, 0)
  ihdr.writeUInt32BE(256, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(256 * 3, 0xe5)]) // light grey land
  const pixels = deflateSync(Buffer.concat(Array.from({ length: 256 }, () => row)))
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))])
}

/** Serves one PNG for every tile; returns its TILE_URL and close. */
export async function startTileServer() {
  const tile = pngTile()
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'max-age=86400', 'Access-Control-Allow-Origin': '*' })
    res.end(tile)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}/{z}/{x}/{y}.png`, close: () => server.close() }
}
