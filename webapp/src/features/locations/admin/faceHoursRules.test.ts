import { describe, expect, it } from 'vitest'
import { MsgClock, MsgHoursOrder, MsgTimezone } from '../../../platform/api-types/locations'
import { nowIn, parseClock, validateHours } from './faceHoursRules'

describe('face hours rules', () => {
  it('reads HH:MM from 00:00 to 24:00', () => {
    expect(parseClock('00:00')).toBe(0)
    expect(parseClock('06:30')).toBe(390)
    expect(parseClock('24:00')).toBe(1440)
    for (const bad of ['6:00', '24:30', '12:60', '25:00', '', '06:00 ', 'ab:cd']) expect(parseClock(bad)).toBeNull()
  })

  it('gives the server messages', () => {
    expect(validateHours({ timezone: 'America/Los_Angeles', open: '06:00', close: '24:00' })).toEqual({})
    expect(validateHours({ timezone: 'America/Phoenix', open: '00:00', close: '24:00' })).toEqual({})
    expect(validateHours({ timezone: 'Mars/Olympus_Mons', open: '06:00', close: '24:00' })).toEqual({ timezone: MsgTimezone })
    expect(validateHours({ timezone: '', open: '6:00', close: '24:00' })).toEqual({ timezone: MsgTimezone, open: MsgClock })
    expect(validateHours({ timezone: 'UTC', open: '18:00', close: '02:00' })).toEqual({ close: MsgHoursOrder })
  })

  it('tells the time in the zone', () => {
    const at = new Date('2026-11-22T12:00:00Z')
    expect(nowIn('America/Los_Angeles', at)).toBe('04:00')
    expect(nowIn('America/New_York', at)).toBe('07:00')
    expect(nowIn('Nowhere/Else', at)).toBe('')
  })
})
