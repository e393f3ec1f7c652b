import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { User } from '../../../platform/api-types/identity'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })
vi.setConfig({ testTimeout: 30_000 })

const withAddress = (user: User): User => ({
  ...user,
  local: { ...user.local, address: '1 Main St', sub_address: '', address_city: 'Austin', address_state: 'TX', address_zipcode: '78701' } as User['local'],
})

describe('/profile (B §2 "Settings and profile")', () => {
  it("saves the names, phone and both addresses with PUT /api/users/{id} and shows 'User data updated!'", async () => {
    const me = withAddress(makeUser())
    const server = mockFetch({
      [`PUT /api/users/${me.id}`]: (req: FakeRequest) => ({ body: { success: true, message: 'User data updated!', user: { ...me, local: { ...me.local, ...(req.body as object) } } } }),
    })
    const user = userEvent.setup()
    const { store } = renderApp('/profile', { session: signedInSession(me) })
    const form = await screen.findByRole('form', { name: 'Profile details' })
    expect(await within(form).findByLabelText('City', { selector: '#shipping-city' })).toHaveValue('Austin')

    // B §9: the state list has the US codes, DC included.
    const billingState = within(form).getByLabelText('State', { selector: '#billing-state' })
    expect(within(billingState).getByRole('option', { name: 'DC – District of Columbia' })).toBeInTheDocument()
    expect(within(billingState).getAllByRole('option')).toHaveLength(52)

    await user.clear(within(form).getByLabelText('First name'))
    await user.type(within(form).getByLabelText('First name'), 'Grace')
    await user.click(within(form).getByRole('button', { name: 'Same as address' }))
    await user.click(within(form).getByRole('button', { name: 'Save profile' }))

    expect(await screen.findByText('User data updated!')).toBeInTheDocument()
    const sent = server.called('PUT', `/api/users/${me.id}`)[0]!.body as Record<string, string>
    expect(sent).toMatchObject({ first_name: 'Grace', last_name: 'Lovelace', address: '1 Main St', address_city: 'Austin', address_state: 'TX', address_zipcode: '78701', billing_address: '1 Main St', billing_city: 'Austin', billing_state: 'TX', billing_zipcode: '78701' })
    // The header follows the saved name.
    await waitFor(() => expect(store.getState().session.user?.local.first_name).toBe('Grace'))
    // One's own profile comes from the session: opening /profile costs no call.
    expect(server.called('GET', `/api/users/${me.id}`)).toHaveLength(0)
  })

  it("checks the ZIP first, and shows 'Sorry! ' plus the server message with its field errors", async () => {
    const me = withAddress(makeUser())
    const server = mockFetch({
      [`GET /api/users/${me.id}`]: { body: me },
      [`PUT /api/users/${me.id}`]: { status: 400, body: { success: false, message: 'Please choose a US state.', errors: { billing_state: 'Please choose a US state.' } } },
    })
    const user = userEvent.setup()
    renderApp('/profile', { session: signedInSession(me) })
    const form = await screen.findByRole('form', { name: 'Profile details' })
    const zip = await within(form).findByLabelText('ZIP', { selector: '#billing-zip' })
    await user.type(zip, '123')
    await user.click(within(form).getByRole('button', { name: 'Save profile' }))
    expect(await within(form).findByText('Please enter a 5-digit ZIP code')).toBeInTheDocument()
    expect(server.called('PUT', `/api/users/${me.id}`)).toHaveLength(0)

    await user.type(zip, '45')
    await user.click(within(form).getByRole('button', { name: 'Save profile' }))
    expect(await within(form).findByText('Sorry! Please choose a US state.')).toBeInTheDocument()
    expect(within(form).getByLabelText('State', { selector: '#billing-state' })).toHaveAttribute('aria-invalid', 'true')
  })

  it('lists the team and invites several people at once, checked in the browser and on the server (B §5)', async () => {
    const me = makeUser()
    const teammate = makeUser({ last_login: '2026-11-02T09:00:00Z' })
    const invited = makeUser()
    invited.local = { ...invited.local, first_name: 'Ian', last_name: 'Vited', status: 'invited' }
    let serverAnswer: { status: number; body: unknown } = {
      status: 400,
      body: { success: false, message: 'This email already belongs to a user of another company.', errors: { 'new_member.1.email': 'This email already belongs to a user of another company.' } },
    }
    const server = mockFetch({
      'GET /api/team-members/': { body: [me, teammate, invited] },
      'POST /api/team-members/': () => serverAnswer,
    })
    const user = userEvent.setup()
    renderApp('/profile?tab=team', { session: signedInSession(me) })
    const team = await screen.findByRole('table', { name: 'Team members' })
    expect(await within(team).findByText(teammate.local.email)).toBeInTheDocument()
    expect(within(team).getByText('invited')).toBeInTheDocument()
    expect(within(team).getByText('Nov 02, 2026')).toBeInTheDocument()

    const form = screen.getByRole('form', { name: 'Invite team members' })
    await user.click(within(form).getByRole('button', { name: 'Add another person' }))
    await user.click(within(form).getByRole('button', { name: 'Add another person' }))
    await user.type(within(form).getByLabelText('Name of team member 1'), 'Grace')
    await user.type(within(form).getByLabelText('Email of team member 1'), 'grace@example')
    await user.type(within(form).getByLabelText('Name of team member 2'), 'Alan Turing')
    await user.type(within(form).getByLabelText('Email of team member 2'), 'alan@example.com')
    await user.type(within(form).getByLabelText('Email of team member 3'), 'ALAN@example.com')
    await user.click(within(form).getByRole('button', { name: 'Send invites' }))
    expect(await within(form).findByText("Last name can't be blank")).toBeInTheDocument()
    expect(within(form).getByText('This is not a valid email')).toBeInTheDocument()
    expect(within(form).getByText('Required')).toBeInTheDocument()
    expect(within(form).getByText('Email already exist')).toBeInTheDocument()
    expect(within(form).getByLabelText('Name of team member 1')).toHaveFocus()
    expect(server.called('POST', '/api/team-members/')).toHaveLength(0)

    await user.click(within(form).getByRole('button', { name: 'Remove team member 3' }))
    await user.type(within(form).getByLabelText('Name of team member 1'), ' Hopper')
    await user.clear(within(form).getByLabelText('Email of team member 1'))
    await user.type(within(form).getByLabelText('Email of team member 1'), 'grace@example.com')
    await user.click(within(form).getByRole('button', { name: 'Send invites' }))
    // B §8: 'Sorry! ' plus the message; the server's field error shows beside its input.
    expect(await within(form).findByText('Sorry! This email already belongs to a user of another company.')).toBeInTheDocument()
    expect(within(form).getByLabelText('Email of team member 2')).toHaveAttribute('aria-invalid', 'true')
    expect(server.called('POST', '/api/team-members/')[0]!.body).toEqual({
      new_member: [
        { name: 'Grace Hopper', email: 'grace@example.com' },
        { name: 'Alan Turing', email: 'alan@example.com' },
      ],
    })

    serverAnswer = { status: 201, body: { success: true, message: 'Your invite(s) have been sent successfully!', users: [] } }
    await user.click(within(form).getByRole('button', { name: 'Send invites' }))
    expect(await screen.findByText('Your invite(s) have been sent successfully!')).toBeInTheDocument()
    expect(within(form).getByLabelText('Name of team member 1')).toHaveValue('')
    expect(within(form).queryByLabelText('Name of team member 2')).not.toBeInTheDocument()
  })

  it("lets the company's owner remove a member and resend an invitation, each after a confirmation (issue 26 item 7)", async () => {
    const me = makeUser()
    const teammate = makeUser()
    const invited = makeUser()
    invited.local = { ...invited.local, first_name: 'Ian', last_name: 'Vited', status: 'invited' }
    const server = mockFetch({
      'GET /api/team-members/': { body: [me, teammate, invited] },
      [`DELETE /api/team-members/${teammate.id}`]: { body: { success: true, message: 'The team member has been removed.' } },
      [`POST /api/team-members/${invited.id}/resend`]: { body: { success: true, message: 'The invitation has been sent again.' } },
    })
    const user = userEvent.setup()
    renderApp('/profile?tab=team', { session: signedInSession(me) })
    const team = await screen.findByRole('table', { name: 'Team members' })
    const mateRow = (await within(team).findByText(teammate.local.email)).closest('tr')!
    // The owner's own row has no action; an account has Remove, an invitation Resend too.
    expect(within(team).getByText('Owner')).toBeInTheDocument()
    expect(within(mateRow).queryByRole('button', { name: /Resend/ })).not.toBeInTheDocument()

    // Rows are looked up afresh: the grid may render them anew.
    const rowOf = (email: string) => within(screen.getByRole('table', { name: 'Team members' })).getByText(email).closest('tr')!
    await user.click(within(rowOf(teammate.local.email)).getByRole('button', { name: 'Remove Ada Lovelace' }))
    const confirm = await screen.findByRole('dialog', { name: 'Remove this team member?' })
    expect(confirm).toHaveTextContent('will be signed out everywhere')
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(server.called('DELETE', `/api/team-members/${teammate.id}`)).toHaveLength(0)
    await user.click(within(rowOf(teammate.local.email)).getByRole('button', { name: 'Remove Ada Lovelace' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove this team member?' })).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('The team member has been removed.')).toBeInTheDocument()
    expect(server.called('DELETE', `/api/team-members/${teammate.id}`)).toHaveLength(1)

    await user.click(within(rowOf(invited.local.email)).getByRole('button', { name: 'Resend the invitation to Ian Vited' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Resend the invitation?' })).getByRole('button', { name: 'Resend' }))
    expect(await screen.findByText('The invitation has been sent again.')).toBeInTheDocument()
    expect(server.called('POST', `/api/team-members/${invited.id}/resend`)).toHaveLength(1)
  })

  it('offers no team actions to a member who is not the owner, and asks a nameless user for their name', async () => {
    const owner = makeUser()
    const me = makeUser({ local: { first_name: '', last_name: '' } })
    mockFetch({ 'GET /api/team-members/': { body: [owner, me] } })
    renderApp('/profile?tab=team', { session: signedInSession(me) })
    const team = await screen.findByRole('table', { name: 'Team members' })
    await within(team).findByText(owner.local.email)
    expect(within(team).queryByRole('button', { name: /Remove|Resend/ })).not.toBeInTheDocument()
    expect(screen.getByText(/Only your company's owner/)).toBeInTheDocument()
    expect(screen.getByTestId('invite-name-missing')).toHaveTextContent('Your invitations do not say who sent them until you add your name.')
  })

  it('has the password and card tabs, and the edit-hub tab only for partner companies', async () => {
    mockFetch({ 'GET /api/cards/me': { body: { id: 'card1', last4: '4242', brand: 'visa', exp_month: 4, exp_year: 2030, masked: 'xxxx-xxxx-xxxx-4242' } } })
    const user = userEvent.setup()
    const standard = renderApp('/profile', { session: signedInSession(makeUser()) })
    const tabs = await screen.findByRole('tablist', { name: 'Profile' })
    expect(within(tabs).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Profile', 'Password', 'Team members', 'Card'])
    await user.click(within(tabs).getByRole('tab', { name: 'Card' }))
    expect(await screen.findByText('xxxx-xxxx-xxxx-4242')).toBeInTheDocument()
    await user.click(within(tabs).getByRole('tab', { name: 'Password' }))
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    expect(await screen.findByRole('dialog', { name: 'Change password' })).toBeInTheDocument()
    standard.unmount()

    for (const companyType of ['ambassador', 'certified']) {
      const view = renderApp('/profile?tab=hub', { session: signedInSession(makeUser({ companyType })) })
      expect(await screen.findByRole('tab', { name: 'Partner profile', selected: true })).toBeInTheDocument()
      expect(screen.getByRole('heading', { name: 'Partner profile' })).toBeInTheDocument()
      view.unmount()
    }
  })
})
