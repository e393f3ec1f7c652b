import { isEmail } from '../../../platform/inputs/emailRules'
import { MsgEmailAlreadyExist, MsgInvitesSent, MsgLastNameBlank, MsgNotValidEmail, MsgRequired, MaxInvitees, type Invitee } from '../../../platform/api-types/identity'

// B §5 "Invite team member", word for word.
export const MSG_REQUIRED = MsgRequired
export const MSG_LAST_NAME = MsgLastNameBlank
export const MSG_NOT_EMAIL = MsgNotValidEmail
export const MSG_EMAIL_EXISTS = MsgEmailAlreadyExist
// B §8.
export const MSG_INVITES_SENT = MsgInvitesSent

/** How many invitees one form sends at most (the server refuses more). */
export const MAX_INVITEES = MaxInvitees
/** A name longer than this is refused before it is sent. */
export const MAX_NAME_LENGTH = 100

export interface InviteeErrors {
  name?: string
  email?: string
}

/** The errors of each invitee, in order (B §5); an empty object where the invitee is fine. */
export function inviteErrors(invitees: Invitee[]): InviteeErrors[] {
  const seen = new Set<string>()
  return invitees.map((invitee) => {
    const errors: InviteeErrors = {}
    const name = invitee.name.trim()
    if (name === '') errors.name = MSG_REQUIRED
    // B §5: a single-word name has no last name.
    else if (name.split(/\s+/).length < 2) errors.name = MSG_LAST_NAME
    else if (name.length > MAX_NAME_LENGTH) errors.name = `Please use at most ${MAX_NAME_LENGTH} characters`
    const email = invitee.email.trim().toLowerCase()
    if (email === '') errors.email = MSG_REQUIRED
    else if (!isEmail(email)) errors.email = MSG_NOT_EMAIL
    else if (seen.has(email)) errors.email = MSG_EMAIL_EXISTS
    if (email) seen.add(email)
    return errors
  })
}

export function hasInviteErrors(errors: InviteeErrors[]): boolean {
  return errors.some((e) => e.name || e.email)
}

/**
 * The server's field errors (`new_member.{i}.name` / `.email`, or `new_member[i].email`) laid over
 * the invitees, so each message shows beside its input.
 */
export function serverInviteErrors(count: number, errors: Record<string, string>): InviteeErrors[] {
  const out: InviteeErrors[] = Array.from({ length: count }, () => ({}))
  for (const [key, message] of Object.entries(errors)) {
    const match = key.match(/^new_member(?:\.|\[)(\d+)\]?\.(name|email)$/)
    if (!match) continue
    const slot = out[Number(match[1])]
    if (slot) slot[match[2] as 'name' | 'email'] = message
  }
  return out
}
