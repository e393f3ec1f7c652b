import { MsgClock, MsgHoursOrder, MsgTimezone } from '../../../platform/api-types/locations'

/** Minutes of the day of "HH:MM", 00:00 to 24:00 (the server's locations.ParseClock), else null. */
export function parseClock(s: string): number | null {
  const m = /^(\d{2}):(\d{2})$/.exec(s)
  if (!m) return null
  const h = Number(m[1])
  const min = Number(m[2])
  if (h > 24 || min > 59 || (h === 24 && min !== 0)) return null
  return h * 60 + min
}

/** Whether the browser knows the IANA zone (the server decides; this only answers early). */
export function knownZone(zone: string): boolean {
  if (!zone.trim() || zone !== zone.trim()) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** The local time now in a zone, "HH:MM", or '' for a zone the browser does not know. */
export function nowIn(zone: string, now = new Date()): string {
  if (!knownZone(zone)) return ''
  return new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(now)
}

export interface HoursDraft {
  timezone: string
  open: string
  close: string
}

export type HoursErrors = Partial<Record<keyof HoursDraft, string>>

/** The server's checks of PUT /api/admin/faces/{id}/hours, with its messages. */
export function validateHours(d: HoursDraft): HoursErrors {
  const errors: HoursErrors = {}
  if (!knownZone(d.timezone)) errors.timezone = MsgTimezone
  const open = parseClock(d.open)
  const close = parseClock(d.close)
  if (open === null) errors.open = MsgClock
  if (close === null) errors.close = MsgClock
  else if (open !== null && open >= close) errors.close = MsgHoursOrder
  return errors
}
