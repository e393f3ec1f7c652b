import { describe, expect, it } from 'vitest'
import { chainScope, displayCode, photoStatusLabel, reasonLabel, verdict } from './verifyRules'

describe('verify rules', () => {
  it('says how much of the chain this check walked', () => {
    expect(chainScope({ chain_length: 1, checked_from: 0, checkpoint_verified_at: '' })).toBe("1 record checked from the campaign's first")
    expect(chainScope({ chain_length: 40, checked_from: 0, checkpoint_verified_at: '' })).toBe("40 records checked from the campaign's first")
    expect(chainScope({ chain_length: 3000, checked_from: 2048, checkpoint_verified_at: '2026-11-27T06:41:09Z' })).toBe(
      'records 2048 to 3000 checked now; records 1 to 2048 were checked on Nov 27, 2026, 06:41 UTC',
    )
  })
  it('names the verdict by what failed', () => {
    expect(verdict({ valid: true, signature_valid: true, chain_valid: true, photos_valid: true }).title).toBe('Valid record')
    expect(verdict({ valid: false, signature_valid: false, chain_valid: true, photos_valid: true }).title).toBe('Signature not valid')
    expect(verdict({ valid: false, signature_valid: true, chain_valid: false, photos_valid: true }).title).toBe('Chain broken')
    expect(verdict({ valid: false, signature_valid: false, chain_valid: false, photos_valid: true }).tone).toBe('broken')
    expect(verdict({ valid: false, signature_valid: true, chain_valid: true, photos_valid: false }).title).toBe('Proof photo does not match')
  })
  it('says what the photo check found', () => {
    expect(photoStatusLabel('matches').tone).toBe('valid')
    expect(photoStatusLabel('mismatch')).toEqual({ tone: 'broken', text: 'Does not match the signed SHA-256' })
    expect(photoStatusLabel('missing').tone).toBe('broken')
  })
  it('tells a correction from a first record', () => {
    expect(reasonLabel('delivery', '')).toBe('Delivery recorded')
    expect(reasonLabel('delivery', 'abc')).toBe('Delivery corrected')
    expect(reasonLabel('proofs_added', 'abc')).toBe('Proof photos added')
  })
  it('groups a code', () => {
    expect(displayCode('demoplaycode')).toBe('DEMO-PLAY-CODE')
    expect(displayCode('DEMO-PLAY-CODE')).toBe('DEMO-PLAY-CODE')
    expect(displayCode('abc')).toBe('ABC')
  })
})
