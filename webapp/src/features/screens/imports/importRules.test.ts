import { describe, expect, it } from 'vitest'
import type { Week } from '../../../platform/api-types/campaigns'
import type { ImportReport } from '../../../platform/api-types/screens'
import { creativeOptions, faceOptions, kindLabel, stillUnmapped } from './importRules'

const week = (product_id: string, creative_id: string, name: string) =>
  ({ product_id, creative_id, product: { location_name: name, face: 'North' } }) as unknown as Week

describe('import mapping rules', () => {
  it('lists each face and creative of a campaign once', () => {
    const weeks = [week('f2', 'c1', 'Main St'), week('f1', 'c1', 'Elm St'), week('f2', 'c2', 'Main St')]
    expect(faceOptions(weeks)).toEqual([
      { value: 'f1', label: 'Elm St · North' },
      { value: 'f2', label: 'Main St · North' },
    ])
    expect(creativeOptions(weeks).map((o) => o.value)).toEqual(['c1', 'c2'])
    expect(creativeOptions(weeks, 'c0').map((o) => o.value)).toEqual(['c0', 'c1', 'c2'])
    const company = [
      { id: 'k1', name: 'Summer', is_default: false },
      { id: 'k2', name: 'Opening', is_default: true },
      { id: 'c1', name: 'Fall', is_default: false },
    ]
    expect(creativeOptions([], '', company)).toEqual([
      { value: 'k2', label: 'Opening (default)' },
      { value: 'k1', label: 'Summer' },
      { value: 'c1', label: 'Fall' },
    ])
    expect(creativeOptions(weeks, '', company).map((o) => o.label)).toEqual(['Fall', 'Creative c2', 'Opening (default)', 'Summer'])
  })

  it('drops the references mapped since the import', () => {
    const report = { unmapped_displays: ['A', 'B'], unmapped_media: ['M'] } as ImportReport
    expect(stillUnmapped(report, { displays: [{ ref: 'A', face_id: 'f' }], media: [] })).toEqual({ displays: ['B'], media: ['M'] })
    expect(stillUnmapped(undefined, undefined)).toEqual({ displays: [], media: [] })
  })

  it('names the kinds of a row reason', () => {
    expect(kindLabel('flagged')).toBe('Flagged')
    expect(kindLabel('refused')).toBe('Refused')
  })
})
