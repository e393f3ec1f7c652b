// The real binary (bin/marquee, `make build`) on a fresh SQLite database with the demo data, for the
// browser benchmarks (lighthouse.mjs, campaign-inp.mjs). Returns its base URL and a stop function.
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export async function startMarquee({ root, port, tileUrl, bin }) {
  const base = `http://127.0.0.1:${port}`
  const data = mkdtempSync(join(tmpdir(), 'marquee-bench-'))
  const env = { ...process.env, PORT: String(port), DATA_DIR: data, BASE_URL: base, LOG_LEVEL: 'warn', TILE_URL: tileUrl }
  const binary = bin ?? join(root, 'bin', 'marquee')
  execFileSync(binary, ['seed', '--demo'], { env, stdio: 'ignore' })
  const server = spawn(binary, ['serve'], { env, stdio: 'ignore' })
  const stop = () => {
    server.kill()
    rmSync(data, { recursive: true, force: true })
  }
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break
    } catch {
      // not up yet
    }
    if (i > 300) {
      stop()
      throw new Error('the server did not start')
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return { base, stop }
}
