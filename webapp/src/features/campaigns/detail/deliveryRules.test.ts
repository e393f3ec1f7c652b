import { describe, expect, it } from 'vitest'
import { belowThreshold, deliveryPercent, deliverySource, formatCredit, signedCount, totalCredit } from './deliveryRules'
import type { MakeGood } from '../../../platform/api-types/campaigns'

describe('plan against delivered (issue 17)', () => {
  it('formats credits with cents, percentages with one decimal and signed differences', () => {
    expect(formatCredit(150.02)).toBe('$150.02')
    expect(formatCredit(1500)).toBe('$1,500.00')
    expect(deliveryPercent({ delivery_pct: 83.3 })).toBe('83.3%')
    expect(deliveryPercent({ delivery_pct: undefined })).toBeNull()
    expect(signedCount(-4000)).toBe('−4,000')
    expect(signedCount(1200)).toBe('+1,200')
    expect(belowThreshold(89.9, 90)).toBe(true)
    expect(belowThreshold(90, 90)).toBe(false)
    expect(belowThreshold(undefined, 90)).toBe(false)
  })

  it('sums make-good credit to the cent', () => {
    expect(totalCredit([{ credit: 0.1 }, { credit: 0.2 }] as MakeGood[])).toBe(0.3)
  })
})

describe('delivery source (issue 28 §6)', () => {
  it('names each source the server sends', () => {
    expect(deliverySource('screen')?.label).toBe('Screen')
    expect(deliverySource('import')?.label).toBe('Import')
    expect(deliverySource('admin')?.label).toBe('Admin entry')
  })
  it('shows nothing while no figure is recorded, or for an unknown source', () => {
    expect(deliverySource('')).toBeNull()
    expect(deliverySource(undefined)).toBeNull()
    expect(deliverySource('toString')).toBeNull()
  })
})
