import type { VerifyResult } from '../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../platform/dates'

/** The verdict's headline: valid, or why not, in the words a person checking a proof reads. */
export function verdict(result: Pick<VerifyResult, 'valid' | 'signature_valid' | 'chain_valid' | 'photos_valid'>): {
  tone: 'valid' | 'broken'
  title: string
  text: string
} {
  if (result.valid) {
    return {
      tone: 'valid',
      title: 'Valid record',
      text: 'The signature matches the published key, the chain of records up to this one is intact and every proof photo is the one signed: nothing was changed after it was recorded.',
    }
  }
  if (result.signature_valid && result.chain_valid && !result.photos_valid) {
    // The record is intact but a photo served is not the one its signature covers.
    return {
      tone: 'broken',
      title: 'Proof photo does not match',
      text: 'The record is signed and its chain is intact, but a proof photo shown here is not the photo that was signed: do not rely on it.',
    }
  }
  if (!result.signature_valid && result.chain_valid) {
    return { tone: 'broken', title: 'Signature not valid', text: 'This record does not match its signature: it was changed after it was signed.' }
  }
  if (result.signature_valid && !result.chain_valid) {
    return { tone: 'broken', title: 'Chain broken', text: 'This record is signed, but an earlier record of the campaign was changed, removed or moved.' }
  }
  return { tone: 'broken', title: 'Record not valid', text: 'Neither the signature nor the chain of records checks.' }
}

/** What the record is: a first delivery, a correction, a proof change. */
export function reasonLabel(reason: string, replaces: string): string {
  switch (reason) {
    case 'delivery':
      return replaces ? 'Delivery corrected' : 'Delivery recorded'
    case 'proofs_added':
      return 'Proof photos added'
    case 'proof_deleted':
      return 'A proof photo removed'
    default:
      return reason
  }
}

/** A code as it is shown (XXXX-XXXX-XXXX) from what was typed or linked. */
export function displayCode(code: string): string {
  const c = code.replace(/[\s-]/g, '').toUpperCase()
  return c.length === 12 ? `${c.slice(0, 4)}-${c.slice(4, 8)}-${c.slice(8)}` : c
}

/** A proof photo's check, in words: the served file against the SHA-256 the record signs. */
export function photoStatusLabel(status: string | undefined): { tone: 'valid' | 'broken'; text: string } {
  switch (status) {
    case 'matches':
      return { tone: 'valid', text: 'Matches the signed SHA-256' }
    case 'mismatch':
      return { tone: 'broken', text: 'Does not match the signed SHA-256' }
    case 'missing':
      return { tone: 'broken', text: 'No longer stored' }
    default:
      return { tone: 'broken', text: 'Not checked' }
  }
}

/**
 * What this check of the chain covered: from the campaign's first record, or from a checkpoint
 * whose earlier records were all checked when it was verified (docs/delivery-assurance.md
 * "Checkpoints").
 */
export function chainScope(result: Pick<VerifyResult, 'chain_length' | 'checked_from' | 'checkpoint_verified_at'>): string {
  const n = result.chain_length
  if (!result.checked_from) return `${n} ${n === 1 ? 'record' : 'records'} checked from the campaign's first`
  const at = result.checkpoint_verified_at
  const when = at ? `${formatDisplayDate(at.slice(0, 10))}, ${at.slice(11, 16)} UTC` : 'earlier'
  return `records ${result.checked_from} to ${n} checked now; records 1 to ${result.checked_from} were checked on ${when}`
}
