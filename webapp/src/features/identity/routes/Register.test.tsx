import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MsgCompanyTaken, MsgEmailTaken, MsgInvalidCompanyName, MsgWeakPassword } from '../../../platform/api-types/identity'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { anonymousSession, makeUser } from '../../../test/users'

const password = 'billboards-all-the-way'

function companyCheck(taken: string[] = []) {
  return (request: FakeRequest) => {
    const name = request.query.get('name') ?? ''
    if (name.length > 100) return { status: 400, body: { success: false, message: MsgInvalidCompanyName } }
    const exists = taken.includes(name)
    return { body: { exists, companies: exists ? [{ name }] : [] } }
  }
}

async function openStep2(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Company name'), 'Sunny Bakery')
  await user.click(screen.getByRole('button', { name: 'Continue' }))
  await screen.findByText(/Step 2 of 2/)
}

describe('Register, step 1: the company name (A §2, A §5)', () => {
  it('refuses a company that is already registered', async () => {
    const server = mockFetch({ 'GET /company-exists': companyCheck(['Acme']) })
    const user = userEvent.setup()
    renderApp('/register', { session: anonymousSession() })
    const company = await screen.findByLabelText('Company name')
    await user.type(company, 'Acme')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText(MsgCompanyTaken)).toBeInTheDocument()
    expect(company).toHaveAttribute('aria-invalid', 'true')
    expect(company).toHaveFocus()
    expect(server.called('GET', '/company-exists')[0]!.query.get('name')).toBe('Acme')
    expect(screen.getByText(/Step 1 of 2/)).toBeInTheDocument()
  })

  it("says 'Invalid company name' when the check fails", async () => {
    mockFetch({ 'GET /company-exists': { status: 400, body: { success: false, message: MsgInvalidCompanyName } } })
    const user = userEvent.setup()
    renderApp('/register', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('Company name'), 'Acme')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText(MsgInvalidCompanyName)).toBeInTheDocument()
  })

  it('asks for a name before checking', async () => {
    const server = mockFetch({})
    const user = userEvent.setup()
    renderApp('/register', { session: anonymousSession() })
    await user.click(await screen.findByRole('button', { name: 'Continue' }))
    expect(screen.getByText('Please enter your company name')).toBeInTheDocument()
    expect(screen.getByLabelText('Company name')).toHaveFocus()
    expect(server.called('GET', '/company-exists')).toHaveLength(0)
  })

  it('goes on to step 2 with the company filled in', async () => {
    mockFetch({ 'GET /company-exists': companyCheck() })
    const user = userEvent.setup()
    renderApp('/register', { session: anonymousSession() })
    await openStep2(user)
    expect(screen.getByLabelText('Company name')).toHaveValue('Sunny Bakery')
    expect(screen.getByLabelText('Email')).toHaveFocus()
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(await screen.findByText(/Step 1 of 2/)).toBeInTheDocument()
    expect(screen.getByLabelText('Company name')).toHaveValue('Sunny Bakery')
  })
})

describe('Register, step 2: the rest of the form', () => {
  it('shows the errors inline and focuses the first invalid field', async () => {
    const server = mockFetch({ 'GET /company-exists': companyCheck() })
    const user = userEvent.setup()
    renderApp('/register', { session: anonymousSession() })
    await openStep2(user)
    await user.type(screen.getByLabelText('Phone'), 'call me')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'short')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(screen.getByText('Please enter your email')).toBeInTheDocument()
    expect(screen.getByText('Invalid phone number')).toBeInTheDocument()
    expect(screen.getByText(MsgWeakPassword)).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus())
    expect(server.called('POST', '/signup')).toHaveLength(0)
  })

  it('asks for consent to call when a phone is given, sends the answer, and thanks the user', async () => {
    const created = makeUser({ local: { email: 'owner@sunny.example', first_name: '', last_name: '', phone: '4155550100', status: 'active', role: { admin: false, super_admin: false } } })
    const server = mockFetch({
      'GET /company-exists': companyCheck(),
      'POST /signup': { status: 201, body: { success: true, user: created } },
    })
    const user = userEvent.setup()
    const app = renderApp('/register', { session: anonymousSession() })
    await openStep2(user)
    await user.type(screen.getByLabelText('Email'), 'owner@sunny.example')
    await user.type(screen.getByLabelText('Phone'), '(415) 555-0100')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), password)
    await user.click(screen.getByRole('button', { name: 'Create account' }))

    const dialog = await screen.findByRole('dialog', { name: 'May we give you a call?' })
    expect(dialog).toHaveTextContent('(415) 555-0100')
    expect(server.called('POST', '/signup')).toHaveLength(0)
    await user.click(within(dialog).getByRole('button', { name: 'Yes, call me' }))

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/thank-you'))
    expect(server.called('POST', '/signup')[0]!.body).toEqual({
      company: 'Sunny Bakery',
      email: 'owner@sunny.example',
      phone: '(415) 555-0100',
      password,
      sendPhoneZoho: true,
    })
    expect(await screen.findByText('Great, someone will be in touch with you soon')).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Thank you for registering!' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard')
  })

  it("sends 'no' when the user declines the call", async () => {
    const server = mockFetch({
      'GET /company-exists': companyCheck(),
      'POST /signup': { status: 201, body: { success: true, user: makeUser() } },
    })
    const user = userEvent.setup()
    renderApp('/register', { session: anonymousSession() })
    await openStep2(user)
    await user.type(screen.getByLabelText('Email'), 'owner@sunny.example')
    await user.type(screen.getByLabelText('Phone'), '4155550100')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), password)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await user.click(await screen.findByRole('button', { name: 'No, thanks' }))
    expect(await screen.findByText('No problem, but feel free to reach out to us anytime')).toBeInTheDocument()
    expect(server.called('POST', '/signup')[0]!.body).toMatchObject({ sendPhoneZoho: false })
  })

  it('signs up without the dialog when no phone is given', async () => {
    const server = mockFetch({
      'GET /company-exists': companyCheck(),
      'POST /signup': { status: 201, body: { success: true, user: makeUser() } },
    })
    const user = userEvent.setup()
    const app = renderApp('/register', { session: anonymousSession() })
    await openStep2(user)
    await user.type(screen.getByLabelText('Email'), 'owner@sunny.example')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), password)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/thank-you'))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(server.called('POST', '/signup')[0]!.body).toMatchObject({ phone: '', sendPhoneZoho: false })
    expect(app.store.getState().flash.messages).toEqual([])
  })

  it("shows 'Sorry! ' plus the server message and the field errors", async () => {
    mockFetch({
      'GET /company-exists': companyCheck(),
      'POST /signup': { status: 409, body: { success: false, message: MsgEmailTaken, errors: { email: MsgEmailTaken } } },
    })
    const user = userEvent.setup()
    const app = renderApp('/register', { session: anonymousSession() })
    await openStep2(user)
    await user.type(screen.getByLabelText('Email'), 'taken@sunny.example')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), password)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(`Sorry! ${MsgEmailTaken}`)
    const email = screen.getByLabelText('Email')
    expect(email).toHaveAccessibleDescription(MsgEmailTaken)
    await waitFor(() => expect(email).toHaveFocus())
    expect(app.router.state.location.pathname).toBe('/register')
  })
})
