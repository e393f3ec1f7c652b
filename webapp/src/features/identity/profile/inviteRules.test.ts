import { describe, expect, it } from 'vitest'
import { hasInviteErrors, inviteErrors, MSG_EMAIL_EXISTS, MSG_LAST_NAME, MSG_NOT_EMAIL, MSG_REQUIRED, serverInviteErrors } from './inviteRules'

describe('the team invite rules (B §5)', () => {
  it('asks for a name and an email, word for word', () => {
    expect(inviteErrors([{ name: '', email: '' }])).toEqual([{ name: MSG_REQUIRED, email: MSG_REQUIRED }])
    expect(MSG_REQUIRED).toBe('Required')
  })

  it("refuses a single-word name with \"Last name can't be blank\"", () => {
    expect(inviteErrors([{ name: '  Grace ', email: 'grace@example.com' }])[0]).toEqual({ name: MSG_LAST_NAME })
    expect(MSG_LAST_NAME).toBe("Last name can't be blank")
  })

  it("refuses a malformed email with 'This is not a valid email'", () => {
    expect(inviteErrors([{ name: 'Grace Hopper', email: 'grace@' }])[0]).toEqual({ email: MSG_NOT_EMAIL })
    expect(MSG_NOT_EMAIL).toBe('This is not a valid email')
  })

  it("refuses an email already in the list with 'Email already exist', whatever its case", () => {
    const errors = inviteErrors([
      { name: 'Grace Hopper', email: 'grace@example.com' },
      { name: 'Alan Turing', email: 'alan@example.com' },
      { name: 'Grace Again', email: 'GRACE@example.com ' },
    ])
    expect(errors).toEqual([{}, {}, { email: MSG_EMAIL_EXISTS }])
    expect(MSG_EMAIL_EXISTS).toBe('Email already exist')
    expect(hasInviteErrors(errors)).toBe(true)
    expect(hasInviteErrors(errors.slice(0, 2))).toBe(false)
  })

  it('places the server field errors on their invitee', () => {
    expect(serverInviteErrors(3, { 'new_member.2.email': 'Taken', 'new_member.0.name': 'Bad', new_member: 'whole list' })).toEqual([{ name: 'Bad' }, {}, { email: 'Taken' }])
  })
})
