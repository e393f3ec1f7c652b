// Runs the end-to-end journeys as E2E_SHARDS Playwright shards side by side (default 2), each with
// its own server, port (E2E_PORT, E2E_PORT+1, ...) and data folder, and fails if any shard fails.
// The journeys of one server run one after the other (playwright.config.ts); much of a journey's
// time is waiting (mail polled every second, webhook deliveries, the server's own work), so two
// servers on two cores finish in well under the time of one.
//
//   npm run e2e                      every journey, in two shards
//   npm run e2e -- e2e/verify.spec.ts   the named journeys, in one process (no shards)
//   E2E_SHARDS=1 npm run e2e         every journey, in one process
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

const args = process.argv.slice(2)
const base = Number(process.env.E2E_PORT ?? '18181')
const shards = args.length > 0 ? 1 : Math.max(1, Number(process.env.E2E_SHARDS ?? '2'))

const children = []
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal)
  })
}

function runShard(index) {
  const port = String(base + index - 1)
  const shardArgs = shards > 1 ? [`--shard=${index}/${shards}`] : []
  const child = spawn('npx', ['playwright', 'test', ...shardArgs, ...args], {
    env: { ...process.env, E2E_PORT: port },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  const prefix = shards > 1 ? `[${index}/${shards}] ` : ''
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix}${line}\n`))
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ index, port, code: code ?? (signal ? 1 : 0) }))
  })
}

const started = Date.now()
const results = await Promise.all(Array.from({ length: shards }, (_, i) => runShard(i + 1)))
const minutes = ((Date.now() - started) / 60000).toFixed(1)
const failed = results.filter((r) => r.code !== 0)
if (shards > 1) {
  for (const r of results) {
    console.log(`shard ${r.index}/${shards} (port ${r.port}): ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`}`)
  }
}
console.log(`end-to-end journeys: ${failed.length === 0 ? 'passed' : 'FAILED'} in ${minutes} min`)
process.exit(failed.length === 0 ? 0 : 1)
