import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MsgCreated } from '../../../platform/api-types/campaigns'
import { renderApp } from '../../../test/renderApp'
import { makeUser } from '../../../test/users'
import { draftKey, loadDraft } from './draft'
import { advertiser, chooseMarketAndFace, server } from './formServer'

// A half-filled new campaign survives a trip to the Ad Design Tool.
vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
  window.localStorage.clear()
})

const ada = makeUser({ id: 'user-ada' })

async function fillAndLeave() {
  server()
  const { router } = renderApp('/campaigns/new', advertiser(ada))
  const user = userEvent.setup()
  await chooseMarketAndFace(user)
  await user.click(screen.getByRole('radio', { name: /Specified end date/ }))
  await waitFor(() => expect(loadDraft(ada.id)?.frequency).toBe('weekly'))
  // The Ad Design Tool's canvas needs a real browser (the e2e journey goes there); the library is
  // another page of the same trip.
  await act(() => router.navigate('/creatives'))
  await waitFor(() => expect(screen.queryByRole('form', { name: 'New campaign' })).not.toBeInTheDocument())
  return { router, user }
}

describe('the new-campaign draft', () => {
  it('restores what was entered after leaving the page, with a note', async () => {
    const { router } = await fillAndLeave()
    await act(() => router.navigate('/campaigns/new'))
    expect(await screen.findByRole('status')).toHaveTextContent('Draft restored.')
    expect(screen.getByLabelText('Campaign name', { selector: 'input' })).toHaveValue('Spring sale')
    expect(screen.getByRole('checkbox', { name: 'SF Bay Area' })).toBeChecked()
    expect(screen.getByRole('radio', { name: /Specified end date/ })).toBeChecked()
    const faces = await screen.findByRole('list', { name: 'Faces' })
    await waitFor(() => expect(within(faces).getByRole('checkbox', { name: 'Broadway & 5th, North Face' })).toBeChecked())
    expect(screen.getByText('(1 chosen)')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('weekly-budget')).toHaveTextContent('$500'))
  })

  it('discards the draft on request and starts over', async () => {
    const { router, user } = await fillAndLeave()
    await act(() => router.navigate('/campaigns/new'))
    await user.click(await screen.findByRole('button', { name: 'Discard draft' }))
    await waitFor(() => expect(screen.getByLabelText('Campaign name', { selector: 'input' })).toHaveValue(''))
    expect(screen.queryByText('Draft restored.')).not.toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'SF Bay Area' })).not.toBeChecked()
    expect(window.localStorage.getItem(draftKey(ada.id))).toBeNull()
  })

  it('belongs to its user: another user on the same browser starts empty', async () => {
    await fillAndLeave()
    server()
    renderApp('/campaigns/new', advertiser(makeUser({ id: 'user-bob' })))
    expect(await screen.findByLabelText('Campaign name', { selector: 'input' })).toHaveValue('')
    expect(screen.queryByText('Draft restored.')).not.toBeInTheDocument()
  })

  it('is gone once the campaign is created', async () => {
    server({ 'POST /api/campaigns': { status: 201, body: { success: true, message: MsgCreated, campaign: { id: 'c1', status: 'pending' } } } })
    const { router } = renderApp('/campaigns/new', advertiser(ada))
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await waitFor(() => expect(loadDraft(ada.id)?.checked).toEqual(['f1']))
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Review and confirm' })).getByRole('button', { name: 'Confirm campaign' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns/success/submitted'))
    expect(window.localStorage.getItem(draftKey(ada.id))).toBeNull()
  })

  it('drops an unreadable or stale draft', () => {
    window.localStorage.setItem(draftKey('u1'), '{not json')
    expect(loadDraft('u1')).toBeNull()
    expect(window.localStorage.getItem(draftKey('u1'))).toBeNull()
    window.localStorage.setItem(draftKey('u1'), JSON.stringify({ savedAt: '2026-01-01T00:00:00Z', checked: [], markets: [] }))
    expect(loadDraft('u1', new Date('2026-03-01T00:00:00Z'))).toBeNull()
  })
})
