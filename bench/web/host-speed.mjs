// How fast this host is, in Lighthouse's own unit, and the CPU slowdown that makes it a given
// device (docs/performance.md, "Seventh pass": figures that do not depend on the host).
//
// Lighthouse's default mobile run slows the CPU 4 times, which stands for a mid-tier phone only on
// a host whose benchmark index is about 1,533. The hosts these benchmarks run on range from about
// 1,000 to over 3,000, so the same page's Total Blocking Time differed by three times from host to
// host. Lighthouse's answer is to calibrate the slowdown to the host: its CPU throttling calculator
// (github.com/patrickhulce/lighthouse-cpu-throttling-calculator, linked from Lighthouse's
// docs/throttling.md) maps the benchmark index to the multiplier for its mid-tier phone.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** The host index Lighthouse's default 4x stands for, by its calculator. */
export const LIGHTHOUSE_DEFAULT_HOST = 1533

/** Lighthouse's benchmark index of this host: the median of `runs` computations in a blank page of
 *  `browser` (Playwright), with the function Lighthouse itself runs before each audit. */
export async function benchmarkIndex(browser, runs = 3) {
  const { pageFunctions } = await import(join(root, 'webapp', 'node_modules', 'lighthouse', 'core', 'lib', 'page-functions.js'))
  const page = await browser.newPage()
  try {
    const indexes = []
    for (let i = 0; i < runs; i += 1) indexes.push(await page.evaluate(`(${pageFunctions.computeBenchmarkIndex})()`))
    indexes.sort((a, b) => a - b)
    return indexes[Math.floor(indexes.length / 2)]
  } finally {
    await page.close()
  }
}

/** The CPU slowdown that makes a host of this benchmark index Lighthouse's mid-tier phone (the
 *  throttling calculator's multiplier, piecewise linear; 4 at 1,533). */
export function mobileMultiplier(index) {
  if (index >= 1300) return 3 + (index - 1300) / 233
  if (index >= 800) return 2 + (index - 800) / 500
  if (index >= 150) return 1 + (index - 150) / 650
  return 1
}

/** The CPU slowdown that makes this host the one Lighthouse's default is calibrated for (a host
 *  of index 1,533), for the desktop benchmarks' goals; 1 on a host as slow or slower. */
export function referenceHostMultiplier(index) {
  return Math.max(1, index / LIGHTHOUSE_DEFAULT_HOST)
}
