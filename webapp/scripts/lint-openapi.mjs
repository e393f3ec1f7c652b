// Lints an OpenAPI document with two independent tools: Redocly's recommended rules
// must report no error, and Spectral's spectral:oas ruleset no error and at most MAX_WARNINGS
// warnings. `make lint-openapi` runs it on the document bin/marquee serves.
import { execFileSync } from 'node:child_process';

const MAX_WARNINGS = 20;
const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/lint-openapi.mjs openapi.json');
  process.exit(2);
}

// Redocly exits non-zero on an error and prints its findings.
execFileSync('npx', ['--no-install', 'redocly', 'lint', file, '--format=summary'], { stdio: 'inherit' });

let out;
try {
  out = execFileSync('npx', ['--no-install', 'spectral', 'lint', file, '-r', '.spectral.yaml', '-f', 'json', '--quiet'], { encoding: 'utf8' });
} catch (e) {
  out = e.stdout; // spectral exits 1 when it finds an error; the JSON says which
}
const findings = JSON.parse(out.slice(out.indexOf('[')));
const errors = findings.filter((f) => f.severity === 0);
const warnings = findings.filter((f) => f.severity === 1);
for (const f of [...errors, ...warnings]) {
  console.log(`spectral ${f.severity === 0 ? 'error' : 'warning'} ${f.code} at ${f.path.join('.')}: ${f.message}`);
}
console.log(`spectral: ${errors.length} errors, ${warnings.length} warnings (at most ${MAX_WARNINGS})`);
if (errors.length > 0 || warnings.length > MAX_WARNINGS) process.exit(1);
