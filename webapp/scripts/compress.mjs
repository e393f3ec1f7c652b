// Writes a brotli (.br) and a gzip (.gz) copy next to every text file of dist/: the Go
// server sends the smallest one the browser accepts (platform/server/spa.go), so no HTML, script,
// stylesheet, SVG or JSON goes over the wire raw and nothing is compressed per request.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist')
// Keep in step with compressible in platform/server/spa.go.
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.map', '.ico'])

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else yield path
  }
}

let raw = 0
let br = 0
for (const path of files(dist)) {
  if (!compressible.has(extname(path))) continue
  const data = readFileSync(path)
  const brotli = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } })
  writeFileSync(path + '.br', brotli)
  writeFileSync(path + '.gz', gzipSync(data, { level: 9 }))
  raw += data.length
  br += brotli.length
}
console.log(`compressed ${(raw / 1024).toFixed(0)} KiB of text to ${(br / 1024).toFixed(0)} KiB (brotli)`)

// The build's last step puts back dist/.keep, which Vite's emptyOutDir removed: git keeps it so
// that webapp/embed.go compiles on a clean clone before any build, and an `npm run build` outside
// make once lost it from a commit (go vet then failed in CI).
writeFileSync(join(dist, '.keep'), '')
