import { HealthNeverSeen, HealthOffline, HealthOnline, StatusRevoked, type Screen } from '../../platform/api-types/screens'
import { formatCount } from '../../platform/money'

/** docs/screens.md "Screen health": online means heard in the last 10 minutes (the server's OnlineWindow). */
export const ONLINE_WINDOW_MS = 10 * 60 * 1000

/** What the page shows of a screen: its health, or revoked, which outranks it. */
export type ScreenState = 'online' | 'offline' | 'never_seen' | 'revoked'

/**
 * A screen's state. The server computes health when it answers; a list that stays open goes stale,
 * so the page recomputes it from last seen against its own clock (a screen heard 9 minutes ago
 * turns offline while the page is open), and a revoked screen is revoked whatever it last said.
 */
export function screenState(screen: Pick<Screen, 'status' | 'health' | 'last_seen_at'>, now: Date): ScreenState {
  if (screen.status === StatusRevoked) return 'revoked'
  if (!screen.last_seen_at) return screen.health === HealthOffline ? 'offline' : 'never_seen'
  const seen = Date.parse(screen.last_seen_at)
  if (Number.isNaN(seen)) return screen.health === HealthOnline ? 'online' : screen.health === HealthNeverSeen ? 'never_seen' : 'offline'
  return now.getTime() - seen <= ONLINE_WINDOW_MS ? 'online' : 'offline'
}

export const STATE_LABELS: Record<ScreenState, string> = {
  online: 'Online',
  offline: 'Offline',
  never_seen: 'Never seen',
  revoked: 'Revoked',
}

/** The map's marker tone of each state (platform/map: good, bad, muted, off). */
export const STATE_TONES = {
  online: 'good',
  offline: 'bad',
  never_seen: 'muted',
  revoked: 'off',
} as const satisfies Record<ScreenState, string>

/** "just now", "5 min ago", "3 h ago", "2 days ago", or "Never". */
export function lastSeen(at: string | undefined, now: Date): string {
  if (!at) return 'Never'
  const t = Date.parse(at)
  if (Number.isNaN(t)) return 'Never'
  const minutes = Math.floor(Math.max(0, now.getTime() - t) / 60_000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return `${hours} h ago`
  return `${Math.floor(hours / 24)} days ago`
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB']

/** Free disk in binary units with one decimal from MB up ("1.5 GB"); "—" before a heartbeat said it. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '—'
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return unit < 2 ? `${Math.round(value)} ${UNITS[unit]}` : `${value.toFixed(1)} ${UNITS[unit]}`
}

/** Plays today against expected: "120 of 450 (27%)"; without an expectation, the plays alone. */
export function playsAgainstExpected(plays: number, expected: number): string {
  if (expected <= 0) return `${formatCount(plays)} (none expected)`
  return `${formatCount(plays)} of ${formatCount(expected)} (${Math.round((plays / expected) * 100)}%)`
}

/** Below this share of the expected plays, the table marks a screen's plays (it is playing too little). */
export const LOW_PLAYS_SHARE = 0.8

export function playsLow(plays: number, expected: number): boolean {
  return expected > 0 && plays < expected * LOW_PLAYS_SHARE
}

/**
 * The reference player's command (docs/screens.md, issue 28 §7). The code goes in single quotes
 * so a shell never reads it; the server is the address the admin reached this page at.
 */
export function playerCommand(server: string, code: string): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  return `marquee dev player --server ${quote(server.replace(/\/+$/, ''))} --pairing-code ${quote(code)}`
}

/** A pairing code's expiry, in the admin's own clock: "Nov 28, 2026, 1:05 AM (in 24 h)". */
export function expiryText(expiresAt: string, now: Date): string {
  const t = Date.parse(expiresAt)
  if (Number.isNaN(t)) return expiresAt
  const when = new Date(t).toLocaleString('en-US', { month: 'short', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' })
  const hours = Math.max(0, Math.round((t - now.getTime()) / 3_600_000))
  return `${when} (in ${hours} h)`
}
