// Fails when the JavaScript a first visit to the landing page downloads is over its budget (issue
// 16: 100 KB gzip). It reads what the server sends that visitor (dist/prerendered/index.html): the
// entry script and every chunk it preloads, measured by their gzip files (scripts/compress.mjs).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

export const BUDGET_BYTES = 100_000

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist')

/** The scripts a first visit to page downloads, with their gzip sizes. */
export function firstVisitScripts(page = 'prerendered/index.html') {
  const html = readFileSync(join(dist, page), 'utf8')
  const urls = new Set()
  // The page asks for its scripts after the first paint (scripts/prerender.mjs): every asset path
  // ending in .js that the page names.
  for (const m of html.matchAll(/"\/?(assets\/[^"]+\.js)"/g)) urls.add('/' + m[1])
  return [...urls].map((url) => {
    const file = join(dist, url)
    const gz = existsSync(file + '.gz') ? readFileSync(file + '.gz') : gzipSync(readFileSync(file), { level: 9 })
    return { url, gzip: gz.length }
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scripts = firstVisitScripts()
  const total = scripts.reduce((sum, s) => sum + s.gzip, 0)
  for (const s of scripts) console.log(`${(s.gzip / 1000).toFixed(1).padStart(7)} kB  ${s.url}`)
  console.log(`${(total / 1000).toFixed(1).padStart(7)} kB  first visit to / (gzip), budget ${BUDGET_BYTES / 1000} kB`)
  if (scripts.length === 0) {
    console.error('no script found in dist/prerendered/index.html: is the build prerendered?')
    process.exit(1)
  }
  if (total > BUDGET_BYTES) {
    console.error(`the landing page's JavaScript is over its budget by ${((total - BUDGET_BYTES) / 1000).toFixed(1)} kB`)
    process.exit(1)
  }
}
