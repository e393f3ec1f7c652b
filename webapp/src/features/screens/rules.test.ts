import { describe, expect, it } from 'vitest'
import { expiryText, formatBytes, lastSeen, playerCommand, playsAgainstExpected, playsLow, screenState } from './rules'

const now = new Date('2026-11-27T12:00:00Z')
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()

describe('screenState', () => {
  it('is online when heard within 10 minutes, offline after', () => {
    expect(screenState({ status: 'active', health: 'online', last_seen_at: ago(9 * 60_000) }, now)).toBe('online')
    expect(screenState({ status: 'active', health: 'online', last_seen_at: ago(10 * 60_000) }, now)).toBe('online')
    // The list was loaded while it was online; the page's clock has moved on since.
    expect(screenState({ status: 'active', health: 'online', last_seen_at: ago(10 * 60_000 + 1) }, now)).toBe('offline')
  })
  it('is never seen without a last seen', () => {
    expect(screenState({ status: 'active', health: 'never_seen' }, now)).toBe('never_seen')
  })
  it('is revoked whatever the health says', () => {
    expect(screenState({ status: 'revoked', health: 'online', last_seen_at: ago(1000) }, now)).toBe('revoked')
  })
  it('falls back to the server health when last seen is unreadable', () => {
    expect(screenState({ status: 'active', health: 'online', last_seen_at: 'nonsense' }, now)).toBe('online')
    expect(screenState({ status: 'active', health: 'offline', last_seen_at: 'nonsense' }, now)).toBe('offline')
  })
})

describe('lastSeen', () => {
  it('reads as a person would say it', () => {
    expect(lastSeen(undefined, now)).toBe('Never')
    expect(lastSeen(ago(20_000), now)).toBe('just now')
    expect(lastSeen(ago(5 * 60_000), now)).toBe('5 min ago')
    expect(lastSeen(ago(3 * 3_600_000), now)).toBe('3 h ago')
    expect(lastSeen(ago(3 * 86_400_000), now)).toBe('3 days ago')
  })
  it('does not go negative for a clock ahead of the page', () => {
    expect(lastSeen(new Date(now.getTime() + 60_000).toISOString(), now)).toBe('just now')
  })
})

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(0)).toBe('—')
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(2048)).toBe('2 KB')
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB')
  })
})

describe('plays against expected', () => {
  it('shows the share of the expected plays', () => {
    expect(playsAgainstExpected(120, 450)).toBe('120 of 450 (27%)')
    expect(playsAgainstExpected(3, 0)).toBe('3 (none expected)')
  })
  it('marks a screen playing under 80% of what was expected', () => {
    expect(playsLow(79, 100)).toBe(true)
    expect(playsLow(80, 100)).toBe(false)
    expect(playsLow(0, 0)).toBe(false)
  })
})

describe('playerCommand', () => {
  it('quotes the server and the code for a shell', () => {
    expect(playerCommand('http://127.0.0.1:8080/', 'ABCD-EFGH')).toBe("marquee dev player --server 'http://127.0.0.1:8080' --pairing-code 'ABCD-EFGH'")
    expect(playerCommand('http://x', "a'b")).toBe("marquee dev player --server 'http://x' --pairing-code 'a'\\''b'")
  })
})

describe('expiryText', () => {
  it('says how long the code lives', () => {
    expect(expiryText(new Date(now.getTime() + 24 * 3_600_000).toISOString(), now)).toMatch(/\(in 24 h\)$/)
  })
})
