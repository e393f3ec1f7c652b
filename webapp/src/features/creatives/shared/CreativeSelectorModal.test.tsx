import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { describe, expect, it, vi } from 'vitest'
import { makeStore } from '../../../app/store'
import { mockFetch } from '../../../test/fetch'
import { makeUser, signedInSession } from '../../../test/users'
import type { Creative } from '../../../platform/api-types/creatives'
import CreativeSelectorModal from './CreativeSelectorModal'

function creative(overrides: Partial<Creative> = {}): Creative {
  return {
    id: 'c1',
    awsUrl: '/creative/image?image=creative%2Fa.jpg',
    name: 'Spring sale',
    alt: 'Spring sale',
    url: 'creative/a.jpg',
    company: 'company-1',
    reference: 'CR-1',
    converted_thumb: '',
    width: 1400,
    height: 400,
    is_default: false,
    created_at: '2026-11-20T10:00:00Z',
    ...overrides,
  }
}

function renderModal(size?: { width: number; height: number }) {
  const user = makeUser({ local: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', phone: '', status: 'active', role: { admin: false, super_admin: false } } })
  const store = makeStore({ session: signedInSession(user) })
  const onSelect = vi.fn()
  const onClose = vi.fn()
  render(
    <Provider store={store}>
      <CreativeSelectorModal open onClose={onClose} onSelect={onSelect} size={size} />
    </Provider>,
  )
  return { onSelect, onClose, user: userEvent.setup() }
}

describe('CreativeSelectorModal', () => {
  it('offers the three ways and the hint of A §8', async () => {
    mockFetch({})
    renderModal()
    const dialog = screen.getByRole('dialog', { name: 'Choose a creative' })
    expect(dialog).toHaveAccessibleDescription('To build your own ad, click the Creatives menu and then select Ad Design Tool')
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Upload', 'Pick from library', 'Request a build'])
    expect(screen.getByLabelText('Creative file')).toBeInTheDocument()
  })

  it('says the creative must be uploaded before it is saved', async () => {
    mockFetch({})
    const { user } = renderModal()
    await user.click(screen.getByRole('button', { name: 'Save creative' }))
    expect(await screen.findByText('Sorry! you must first upload your creative')).toBeInTheDocument()
  })

  it('returns the creative picked from the library, of the size asked for', async () => {
    const picked = creative({ id: 'c2', name: 'Night ad' })
    const server = mockFetch({ 'GET /api/creatives/size': { body: [creative(), picked] } })
    const { user, onSelect, onClose } = renderModal({ width: 1400, height: 400 })
    await user.click(screen.getByRole('tab', { name: 'Pick from library' }))
    await user.click(await screen.findByRole('button', { name: 'Use Night ad' }))
    expect(onSelect).toHaveBeenCalledWith(picked)
    expect(onClose).toHaveBeenCalled()
    expect(server.calls.find((c) => c.path === '/api/creatives/size')?.query.toString()).toBe('width=1400&height=400')
  })

  it('requests a build with the prefilled name and email (A §8 messages)', async () => {
    let answer = { status: 200, body: { success: true, message: 'Thank you for your Creative request - Someone will be in touch with you shortly' } as unknown }
    const server = mockFetch({ 'POST /users/creative': () => answer })
    const { user } = renderModal()
    await user.click(screen.getByRole('tab', { name: 'Request a build' }))
    expect(screen.getByLabelText('Full name')).toHaveValue('Ada Lovelace')
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com')
    await user.type(screen.getByLabelText(/What should the ad say/), 'Coffee, 2 for 1')
    await user.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByText('Thank you for your Creative request - Someone will be in touch with you shortly')).toBeInTheDocument()
    expect(server.called('POST', '/users/creative')[0]?.body).toEqual({ email: 'ada@example.com', full_name: 'Ada Lovelace', message: 'Coffee, 2 for 1' })

    answer = { status: 500, body: { success: false, message: 'Internal error.' } }
    await user.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByText('Unexpected Error.')).toBeInTheDocument()
  })

  it('checks the request form before sending', async () => {
    const server = mockFetch({})
    const { user } = renderModal()
    await user.click(screen.getByRole('tab', { name: 'Request a build' }))
    await user.clear(screen.getByLabelText('Full name'))
    await user.click(screen.getByRole('button', { name: 'Send request' }))
    expect(await screen.findByText('Please enter your full name')).toBeInTheDocument()
    expect(screen.getByLabelText('Full name')).toHaveFocus()
    expect(server.called('POST', '/users/creative')).toHaveLength(0)
  })
})
