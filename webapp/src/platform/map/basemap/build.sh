#!/usr/bin/env bash
# Rebuilds us-basemap.json, the map's offline basemap (see README.md): the US states of the npm
# package us-atlas (US Census Bureau cartographic boundaries), simplified, and the largest cities of
# the place-search gazetteer (modules/locations/gazetteer). Needs node and npm; works in a temporary
# folder and touches nothing but us-basemap.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gazetteer="$here/../../../../../modules/locations/gazetteer/us-places.csv.gz"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm init -y >/dev/null
npm install --silent --no-audit --no-fund us-atlas@3.0.1 topojson-client@3.1.0 topojson-simplify@3.0.3 >/dev/null
zcat "$gazetteer" > places.csv
cat > build.mjs <<'JS'
// States: us-atlas states-10m (longitude/latitude), simplified (Visvalingam, 0.01 square degrees) so that
// each state keeps its shape at the zooms the map opens at (3 to 8), coordinates rounded to 0.01° (about 1 km).
// Cities: the gazetteer's places of at least 200,000 inhabitants, largest first, one per area.
import { readFileSync, writeFileSync } from 'node:fs'
import { feature } from 'topojson-client'
import { presimplify, simplify } from 'topojson-simplify'
const topo = JSON.parse(readFileSync('node_modules/us-atlas/states-10m.json', 'utf8'))
const simple = simplify(presimplify(topo), 0.01)
const round = (c) => (typeof c[0] === 'number' ? [Math.round(c[0] * 100) / 100, Math.round(c[1] * 100) / 100] : c.map(round))
const states = feature(simple, simple.objects.states).features.map((f) => ({
  type: 'Feature',
  properties: { name: f.properties.name },
  geometry: { type: f.geometry.type, coordinates: round(f.geometry.coordinates) },
}))
const cities = readFileSync('places.csv', 'utf8').trim().split('\n').slice(1)
  .map((line) => line.split(','))
  .map(([, name, state, lat, lng, population]) => ({ name, state, lat: +lat, lng: +lng, population: +population }))
  .filter((c) => c.population >= 200000)
  .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name))
  // One label per city: a place within 0.3° of a larger one kept (a borough, a suburb) is left out.
  .filter(function (c) {
    this.kept ??= []
    if (this.kept.some((k) => Math.hypot(k.lat - c.lat, k.lng - c.lng) < 0.3)) return false
    this.kept.push(c)
    return true
  }, {})
  .map((c) => ({ type: 'Feature', properties: { name: c.name, state: c.state, population: c.population },
    geometry: { type: 'Point', coordinates: [Math.round(c.lng * 100) / 100, Math.round(c.lat * 100) / 100] } }))
writeFileSync(process.argv[2], JSON.stringify({ states: { type: 'FeatureCollection', features: states }, cities: { type: 'FeatureCollection', features: cities } }) + '\n')
JS
node build.mjs "$here/us-basemap.json"
echo "wrote $here/us-basemap.json ($(wc -c < "$here/us-basemap.json") bytes)"
