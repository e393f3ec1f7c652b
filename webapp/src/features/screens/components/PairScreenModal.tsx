import { useId, useMemo, useRef, useState } from 'react'
import type { Location } from '../../../platform/api-types/locations'
import type { PairingCode } from '../../../platform/api-types/screens'
import { errorMessage } from '../../../platform/http'
import Modal from '../../../platform/Modal'
import Spinner from '../../../platform/Spinner'
import { useCreatePairingCodeMutation } from '../api'
import { expiryText, playerCommand } from '../rules'

/** At most this many faces match a search at once: the list is a picker, not a catalogue. */
const MAX_MATCHES = 20

export interface PairScreenModalProps {
  open: boolean
  onClose: () => void
  faces: readonly Location[] | undefined
  facesLoading: boolean
  /** Faces that already have an active screen: a new pairing replaces it (docs/screens.md). */
  pairedFaceIds: ReadonlySet<string>
  /** The address the player reaches this server at. */
  server: string
}

/** Faces whose name, city, market or face match every word of the search. */
export function matchFaces(faces: readonly Location[], search: string, limit = MAX_MATCHES): Location[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return []
  const out: Location[] = []
  for (const f of faces) {
    const text = `${f.location_name} ${f.city} ${f.market} ${f.face}`.toLowerCase()
    if (words.every((w) => text.includes(w))) {
      out.push(f)
      if (out.length >= limit) break
    }
  }
  return out
}

/**
 * "Pair a screen" (issue 28 §1): pick a face, get its single-use code, shown once, with its
 * expiry and the reference player's command to copy.
 */
export default function PairScreenModal({ open, onClose, faces, facesLoading, pairedFaceIds, server }: PairScreenModalProps) {
  const [search, setSearch] = useState('')
  const [faceId, setFaceId] = useState<string | null>(null)
  const [created, setCreated] = useState<PairingCode | null>(null)
  const [copied, setCopied] = useState<string | null>(null)
  const [create, creating] = useCreatePairingCodeMutation()
  const searchRef = useRef<HTMLInputElement>(null)
  const listId = useId()
  const matches = useMemo(() => matchFaces(faces ?? [], search), [faces, search])
  const chosen = useMemo(() => (faceId ? faces?.find((f) => f.id === faceId) : undefined), [faces, faceId])

  const close = () => {
    setSearch('')
    setFaceId(null)
    setCreated(null)
    setCopied(null)
    creating.reset()
    onClose()
  }

  const submit = async () => {
    if (!faceId) return
    const result = await create({ face_id: faceId })
    if ('data' in result && result.data) setCreated(result.data)
  }

  const copy = async (what: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(what)
    } catch {
      setCopied(`${what}-failed`)
    }
  }

  const command = created ? playerCommand(server, created.code) : ''
  const face = created ? (faces?.find((f) => f.id === created.face_id) ?? chosen) : chosen

  return (
    <Modal
      open={open}
      title="Pair a screen"
      onClose={close}
      size="md"
      initialFocus={searchRef}
      closeOnBackdrop={!created}
      footer={
        created ? (
          <button type="button" className="btn-primary" onClick={close}>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="btn-secondary" onClick={close} disabled={creating.isLoading}>
              Cancel
            </button>
            <button type="button" className="btn-primary" onClick={submit} disabled={!faceId || creating.isLoading}>
              {creating.isLoading ? 'Making the code…' : 'Get a pairing code'}
            </button>
          </>
        )
      }
    >
      {created ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">
            The pairing code for <strong>{face ? `${face.location_name}, ${face.face}` : 'the face'}</strong>. It is shown only once and works for one
            pairing.
          </p>
          <div>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase" id={`${listId}-code`}>
              Pairing code
            </p>
            <div className="mt-1 flex flex-wrap items-center gap-2">
              <code aria-labelledby={`${listId}-code`} data-testid="pairing-code" className="rounded-lg bg-slate-100 px-3 py-2 font-mono text-lg font-semibold tracking-wider text-slate-900 select-all">
                {created.code}
              </code>
              <button type="button" className="btn-secondary text-sm" onClick={() => copy('code', created.code)}>
                Copy code
              </button>
            </div>
            <p className="mt-1 text-sm text-slate-600">Expires {expiryText(created.expires_at, new Date())}.</p>
          </div>
          <div>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase" id={`${listId}-cmd`}>
              Start the reference player
            </p>
            <pre aria-labelledby={`${listId}-cmd`} data-testid="player-command" className="mt-1 overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap text-slate-100 [overflow-wrap:anywhere] select-all">
              {command}
            </pre>
            <button type="button" className="btn-secondary mt-2 text-sm" onClick={() => copy('command', command)}>
              Copy command
            </button>
          </div>
          <p role="status" className="min-h-5 text-sm text-slate-700">
            {copied === 'code' ? 'The code is copied.' : copied === 'command' ? 'The command is copied.' : copied ? 'Copying was refused here: select the text and copy it.' : ''}
          </p>
        </div>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">Pick the face the player will show. You get a single-use code, valid for 24 hours.</p>
          <label htmlFor={`${listId}-search`} className="block text-sm font-medium text-slate-700">
            Find a face
          </label>
          <input
            ref={searchRef}
            id={`${listId}-search`}
            type="search"
            className="field-input"
            placeholder="Location, city or market"
            autoComplete="off"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            aria-describedby={`${listId}-hint`}
          />
          <p id={`${listId}-hint`} className="text-xs text-slate-600">
            {facesLoading ? 'Loading the faces…' : search.trim() === '' ? 'Type a few letters of its name.' : matches.length === 0 ? 'No face matches.' : `${matches.length === MAX_MATCHES ? `The first ${MAX_MATCHES}` : matches.length} matching.`}
          </p>
          {facesLoading && <Spinner label="Loading the faces" />}
          {matches.length > 0 && (
            <fieldset>
              <legend className="sr-only">Faces</legend>
              <ul className="max-h-64 divide-y divide-slate-200 overflow-y-auto rounded-lg border border-slate-200">
                {matches.map((f) => (
                  <li key={f.id}>
                    <label className={`flex cursor-pointer items-start gap-3 px-3 py-2 text-sm ${faceId === f.id ? 'bg-brand-50' : 'hover:bg-slate-50'}`}>
                      <input type="radio" name={`${listId}-face`} className="mt-1" checked={faceId === f.id} onChange={() => setFaceId(f.id)} />
                      <span className="min-w-0">
                        <span className="block font-medium break-words text-slate-900">
                          {f.location_name}, {f.face}
                        </span>
                        <span className="block text-xs text-slate-600">
                          {[f.city, f.market].filter(Boolean).join(', ')}
                          {pairedFaceIds.has(f.id) && ' · has a screen: pairing replaces it'}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          )}
          {chosen && !matches.some((m) => m.id === chosen.id) && (
            <p className="text-sm text-slate-700">
              Chosen: {chosen.location_name}, {chosen.face}
            </p>
          )}
          {creating.isError && (
            <p role="alert" className="text-sm text-red-700">
              Sorry! {errorMessage(creating.error)}
            </p>
          )}
        </div>
      )}
    </Modal>
  )
}
