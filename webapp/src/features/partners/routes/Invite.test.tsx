import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

vi.setConfig({ testTimeout: 30_000 })

const invited = {
  id: 'link-1',
  company_id: 'c-1',
  company_name: 'Cleo Bakery',
  email: 'cleo@example.com',
  full_name: 'Cleo Client',
  source: 'invite',
  status: 'invited',
  started: '2026-11-20',
  linked: { expiration: '2027-11-19', active: true },
  bonus: 0,
}

describe('/invite', () => {
  it('lists the clients, resends an invitation with the server message as success or danger, and invites a client', async () => {
    const user = userEvent.setup()
    let resends = 0
    const server = mockFetch({
      'GET /api/special/invite': { body: [invited, { ...invited, id: 'link-2', email: 'old@example.com', company_name: 'Old Co', status: 'expired' }] },
      'PUT /api/special/ambassador/invite/link-1': () => {
        resends += 1
        return resends === 1
          ? { body: { success: true, message: 'The invitation was sent again.' } }
          : { status: 409, body: { success: false, message: 'This user has already set up their account.' } }
      },
      'POST /users/ambassador/invite': { body: { success: true, message: 'The client was invited successfully.', client: invited } },
    })
    const app = renderApp('/invite', { session: signedInSession(makeUser({ companyType: 'ambassador' })) })
    const grid = await screen.findByRole('table', { name: 'Invited clients' })
    const row = await within(grid).findByRole('row', { name: /cleo@example.com/ })
    expect(row).toHaveTextContent('Invited')
    expect(within(grid).getByRole('row', { name: /old@example.com/ })).toHaveTextContent('Link expired')

    // B §8: resend shows the server's message as success, then as danger.
    await user.click(within(row).getByRole('button', { name: /Resend/ }))
    await waitFor(() => expect(app.store.getState().flash.messages).toEqual([expect.objectContaining({ text: 'The invitation was sent again.', type: 'success' })]))
    await user.click(within(row).getByRole('button', { name: /Resend/ }))
    await waitFor(() =>
      expect(app.store.getState().flash.messages).toContainEqual(expect.objectContaining({ text: 'This user has already set up their account.', type: 'danger' })),
    )

    // The modal: the B §5 name rules before anything is sent.
    await user.click(screen.getByRole('button', { name: 'Invite a client' }))
    const modal = await screen.findByRole('dialog', { name: 'Invite a client' })
    await user.click(within(modal).getByRole('button', { name: 'Send invitation' }))
    expect(within(modal).getByText('Full name must be present')).toBeInTheDocument()
    await user.type(within(modal).getByLabelText(/Full name/), 'Dana')
    await user.type(within(modal).getByLabelText(/^Email/), 'dana@example.com')
    await user.click(within(modal).getByRole('button', { name: 'Send invitation' }))
    expect(within(modal).getByText("Please enter the client's first and last name.")).toBeInTheDocument()
    expect(server.called('POST', '/users/ambassador/invite')).toHaveLength(0)
    await user.type(within(modal).getByLabelText(/Full name/), ' Scully')
    await user.click(within(modal).getByRole('button', { name: 'Send invitation' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite a client' })).toBeNull())
    expect(server.called('POST', '/users/ambassador/invite')[0]!.body).toEqual({ full_name: 'Dana Scully', email: 'dana@example.com', company: '' })
    expect(app.store.getState().flash.messages).toContainEqual(expect.objectContaining({ text: 'The client was invited successfully.', type: 'success' }))
  })
})
