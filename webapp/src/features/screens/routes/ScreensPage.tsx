import { useCallback, useEffect, useMemo, useState } from 'react'
import type { Location } from '../../../platform/api-types/locations'
import { StatusActive, type Screen } from '../../../platform/api-types/screens'
import Alert from '../../../platform/Alert'
import Confirm from '../../../platform/Confirm'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { useDispatch } from 'react-redux'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import FaceMap from '../../../platform/map/Map'
import { facesView } from '../../../platform/map/viewRules'
import { useFacesQuery, useMapTiles } from '../../locations/shared/api'
import { useRevokeScreenMutation, useScreensQuery } from '../api'
import PairScreenModal from '../components/PairScreenModal'
import { formatBytes, lastSeen, playsAgainstExpected, playsLow, screenState, STATE_LABELS, STATE_TONES, type ScreenState } from '../rules'

/** The list is polled: a player that pairs or falls silent shows without a reload. */
const POLL_MS = 30_000

const BADGE: Record<ScreenState, string> = {
  online: 'bg-emerald-100 text-emerald-900',
  offline: 'bg-red-100 text-red-900',
  never_seen: 'bg-slate-200 text-slate-800',
  revoked: 'bg-white text-slate-700 ring-1 ring-slate-300',
}

function StateBadge({ state }: { state: ScreenState }) {
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[state]}`}>
      <span aria-hidden="true" className={`map-dot map-dot--${STATE_TONES[state]} inline-block h-2 w-2 rounded-full`} />
      {STATE_LABELS[state]}
    </span>
  )
}

/** A screen on the map: its face's position, and the face's direction when the faces are loaded. */
interface ScreenFace {
  id: string
  lat: number
  lng: number
  face: string
  location_name: string
  state: ScreenState
}

const STATE_ORDER: ScreenState[] = ['online', 'offline', 'never_seen', 'revoked']

/** /admin/screens (issue 28 §6): every paired screen on a map and in a table, pairing and revoking. */
export default function ScreensPage() {
  const dispatch = useDispatch()
  const screens = useScreensQuery(undefined, { pollingInterval: POLL_MS, refetchOnMountOrArgChange: true })
  const faces = useFacesQuery({ market: '' })
  const tiles = useMapTiles()
  const [revoke, revoking] = useRevokeScreenMutation()
  const [pairing, setPairing] = useState(false)
  const [asked, setAsked] = useState<Screen | null>(null)
  const [selectedId, setSelectedId] = useState<string | number | null>(null)
  // The page's clock: health is read against it, so a screen turns offline while the page is open.
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), POLL_MS)
    return () => window.clearInterval(timer)
  }, [])

  const items = useMemo(() => screens.data?.items ?? [], [screens.data])
  const faceById = useMemo(() => new Map<string, Location>((faces.data ?? []).map((f) => [f.id, f])), [faces.data])
  const active = useMemo(() => items.filter((s) => s.status === StatusActive), [items])
  /** A screen by its face, as a person names it: "Market St & 5th, North Face". */
  const nameOf = useCallback(
    (s: Screen) => {
      const f = faceById.get(s.face_id)
      return f ? `${f.location_name}, ${f.face}` : s.location || 'an unknown face'
    },
    [faceById],
  )
  const pairedFaceIds = useMemo(() => new Set(active.map((s) => s.face_id)), [active])
  // The markers wait for the face list: a Leaflet marker keeps the title it was made with, so a
  // marker drawn before the faces arrive would keep the screen's fallback name for good.
  const mapFaces = useMemo<ScreenFace[]>(
    () =>
      (faces.isLoading ? [] : active).map((s) => ({
        id: s.id,
        lat: s.lat,
        lng: s.lng,
        face: faceById.get(s.face_id)?.face ?? '',
        location_name: faceById.get(s.face_id)?.location_name ?? s.location,
        state: screenState(s, now),
      })),
    [active, faceById, faces.isLoading, now],
  )
  // The map moves when its view object changes: only when the screens' places do, not at each poll.
  const placesKey = mapFaces.map((f) => `${f.lat},${f.lng}`).join(';')
  const view = useMemo(
    () => facesView(placesKey ? placesKey.split(';').map((p) => ({ lat: Number(p.split(',')[0]), lng: Number(p.split(',')[1]) })) : []),
    [placesKey],
  )
  const counts = useMemo(() => {
    const c: Record<ScreenState, number> = { online: 0, offline: 0, never_seen: 0, revoked: 0 }
    for (const s of items) c[screenState(s, now)]++
    return c
  }, [items, now])

  const columns = useMemo<Columns<Screen>>(
    () => [
      {
        id: 'state',
        header: 'Status',
        accessorFn: (s) => STATE_ORDER.indexOf(screenState(s, now)),
        cell: (c) => <StateBadge state={screenState(c.row.original, now)} />,
      },
      {
        id: 'location',
        header: 'Face',
        accessorFn: (s) => s.location,
        cell: (c) => {
          const s = c.row.original
          const f = faceById.get(s.face_id)
          return (
            <span className="block max-w-[16rem] min-w-[10rem] whitespace-normal">
              <span className="block font-medium text-slate-900">{f?.location_name ?? (s.location || 'Unknown face')}</span>
              {f && <span className="block text-xs text-slate-600">{[f.face, f.city, f.market !== f.city ? f.market : ''].filter(Boolean).join(' · ')}</span>}
            </span>
          )
        },
      },
      {
        id: 'last_seen_at',
        header: 'Last seen',
        accessorFn: (s) => (s.last_seen_at ? Date.parse(s.last_seen_at) : 0),
        cell: (c) => {
          const at = c.row.original.last_seen_at
          return <span title={at ? new Date(at).toLocaleString() : undefined}>{lastSeen(at, now)}</span>
        },
      },
      { id: 'app_version', header: 'App version', accessorFn: (s) => s.app_version, cell: (c) => <span className="font-mono text-xs">{c.row.original.app_version || '—'}</span> },
      { id: 'free_disk_bytes', header: 'Free disk', accessorFn: (s) => s.free_disk_bytes, cell: (c) => <span className="tabular-nums">{formatBytes(c.row.original.free_disk_bytes)}</span> },
      {
        id: 'plays_today',
        header: 'Plays today',
        accessorFn: (s) => s.plays_today,
        cell: (c) => {
          const s = c.row.original
          const low = s.status === StatusActive && playsLow(s.plays_today, s.expected_today)
          return (
            <span className={`tabular-nums ${low ? 'font-medium text-red-700' : ''}`}>
              {playsAgainstExpected(s.plays_today, s.expected_today)}
              {low && <span className="sr-only"> (below expected)</span>}
            </span>
          )
        },
      },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        meta: { label: 'Actions' },
        enableSorting: false,
        cell: (c) => {
          const s = c.row.original
          if (s.status !== StatusActive) return null
          return (
            <button type="button" className="btn-ghost px-2 py-1 text-sm text-red-700" aria-label={`Revoke the screen at ${nameOf(s)}`} onClick={() => setAsked(s)}>
              Revoke
            </button>
          )
        },
      },
    ],
    [faceById, nameOf, now],
  )

  const confirmRevoke = async () => {
    if (!asked) return
    const result = await revoke(asked.id)
    if ('error' in result && result.error) {
      dispatch(flashShown(`Sorry! ${errorMessage(result.error)}`, 'danger'))
    } else {
      dispatch(flashShown(`The screen at ${nameOf(asked)} is revoked.`, 'success'))
    }
    setAsked(null)
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Screens</h1>
          <p className="mt-1 text-slate-600">The players paired with faces: whether each is heard from, and its plays today against what its loop should have played.</p>
        </div>
        <button type="button" className="btn-primary self-start sm:self-auto" onClick={() => setPairing(true)}>
          Pair a screen
        </button>
      </div>

      {screens.isError && <Alert>{`Sorry! ${errorMessage(screens.error)}`}</Alert>}

      {items.length > 0 && (
        <p className="text-sm text-slate-700" data-testid="screen-counts">
          {STATE_ORDER.filter((s) => counts[s] > 0)
            .map((s) => `${counts[s]} ${STATE_LABELS[s].toLowerCase()}`)
            .join(' · ')}
        </p>
      )}

      <section aria-labelledby="screens-map" className="card space-y-3 p-4 sm:p-5">
        <h2 id="screens-map" className="font-semibold text-slate-900">
          Map
        </h2>
        {tiles ? (
          <FaceMap
            faces={mapFaces}
            mode="detail"
            label="Map of the paired screens"
            tileUrl={tiles.tile_url}
            attribution={tiles.attribution}
            view={view}
            selectedId={selectedId}
            onSelect={setSelectedId}
            toneOf={(f) => STATE_TONES[f.state]}
            describe={(f) => `, ${STATE_LABELS[f.state].toLowerCase()}`}
            renderInfo={(f) => {
              const s = active.find((x) => x.id === f.id)
              return (
                <div className="space-y-1 text-sm">
                  <p className="font-semibold text-slate-900">{f.location_name}</p>
                  <StateBadge state={f.state} />
                  {s && <p className="text-slate-700">Last seen {lastSeen(s.last_seen_at, now)} · plays today {playsAgainstExpected(s.plays_today, s.expected_today)}</p>}
                </div>
              )
            }}
            className="h-72 sm:h-96"
          />
        ) : (
          <div className="h-72 animate-pulse rounded-xl bg-slate-100 sm:h-96" aria-hidden="true" />
        )}
        {tiles && mapFaces.length === 0 && !screens.isLoading && <p className="text-sm text-slate-600">No active screen to show on the map.</p>}
        <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
          {(['online', 'offline', 'never_seen'] as const).map((s) => (
            <li key={s} className="flex items-center gap-1.5">
              <span aria-hidden="true" className={`map-dot map-dot--${STATE_TONES[s]} inline-block h-2.5 w-2.5 rounded-full`} />
              {STATE_LABELS[s]}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="screens-table" className="card space-y-3 p-4 sm:p-5">
        <h2 id="screens-table" className="font-semibold text-slate-900">
          All screens
        </h2>
        <DataGrid
          label="Screens"
          columns={columns}
          data={items}
          getRowId={(s) => s.id}
          pageSizeOptions={[25, 50, 0]}
          defaultPageSize={25}
          loading={screens.isLoading}
          emptyState={
            <span className="block py-4 text-center">
              No screen is paired yet. Use <strong>Pair a screen</strong> to get a code for a face, then start a player with it.
            </span>
          }
        />
      </section>

      <PairScreenModal
        open={pairing}
        onClose={() => {
          setPairing(false)
          void screens.refetch()
        }}
        faces={faces.data}
        facesLoading={faces.isLoading}
        pairedFaceIds={pairedFaceIds}
        server={window.location.origin}
      />
      <Confirm
        open={asked !== null}
        title="Revoke this screen?"
        message={asked ? `The player at ${nameOf(asked)} will be refused from now on: its plays, heartbeats and downloads answer 401. Pairing the face again needs a new code.` : ''}
        confirmText="Revoke"
        tone="danger"
        busy={revoking.isLoading}
        onConfirm={confirmRevoke}
        onCancel={() => setAsked(null)}
      />
    </div>
  )
}
