import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MsgCreated, type CampaignForm as CampaignFormBody } from '../../../platform/api-types/campaigns'
import { MsgMarketsUnavailable } from '../../../platform/api-types/locations'
import { selectFlashes } from '../../../platform/flash/flash'
import { renderApp } from '../../../test/renderApp'
import { advertiser, chooseMarketAndFace, server } from './formServer'

vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
  window.localStorage.clear()
})

// The list is drawn again while the prices of the new markets load.
const faceBox = (name: string) => within(screen.getByRole('list', { name: 'Faces' })).getByRole('checkbox', { name })
const findFace = async (name: string) => {
  await waitFor(() => expect(faceBox(name)).toBeEnabled())
  return faceBox(name)
}

describe('markets on /campaigns/new', () => {
  // A §8 / B §8.
  it('goes to /dashboard with the spec’s message when the markets cannot load', async () => {
    server({ 'GET /api/markets/': { status: 503, body: { success: false, message: MsgMarketsUnavailable } } })
    const { router, store } = renderApp('/campaigns/new', advertiser())
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(await screen.findByText(MsgMarketsUnavailable)).toBeInTheDocument()
    // One message, not a generic flash beside it.
    expect(selectFlashes(store.getState()).map((f) => f.text)).toEqual([MsgMarketsUnavailable])
  })

  it('goes to /dashboard too when the server cannot be reached', async () => {
    const fake = server()
    const real = fake.fetchMock.getMockImplementation()!
    fake.fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/api/markets/')) throw new TypeError('Failed to fetch')
      return real(input, init)
    })
    const { router, store } = renderApp('/campaigns/new', advertiser())
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(await screen.findByText(MsgMarketsUnavailable)).toBeInTheDocument()
    expect(selectFlashes(store.getState()).map((f) => f.text)).toEqual([MsgMarketsUnavailable])
  })

  // B §3 marketsSelected is a list.
  it('picks several markets: their faces and cities show, and every chosen market is sent', async () => {
    let body: CampaignFormBody | undefined
    const fake = server({
      'POST /api/campaigns': (req) => {
        body = req.body as CampaignFormBody
        return { status: 201, body: { success: true, message: MsgCreated } }
      },
    })
    renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await user.click(screen.getByRole('checkbox', { name: 'Denver' }))
    const colfax = await findFace('Colfax Ave, North Face')
    const faces = screen.getByRole('list', { name: 'Faces' })
    // The Bay Area faces stay, and the one already chosen stays chosen.
    expect(within(faces).getByRole('checkbox', { name: 'Broadway & 5th, North Face' })).toBeChecked()
    expect(screen.getByRole('group', { name: /Markets/ })).toHaveTextContent('Markets (2)')
    expect(screen.getByRole('checkbox', { name: 'Aurora' })).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Oakland' })).toBeInTheDocument()
    expect(fake.called('GET', '/api/od/locations/').at(-1)!.query.get('market')).toBe('SF Bay Area,Denver')
    await user.click(colfax)
    expect(screen.getByText('(2 chosen)')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    const dialog = await screen.findByRole('dialog', { name: 'Review and confirm' })
    expect(within(dialog).getByText('SF Bay Area, Denver')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Confirm campaign' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body?.marketsSelected).toEqual(['SF Bay Area', 'Denver'])
    expect(body?.places_checked.map((p) => p.id)).toEqual(['f1', 'd1'])
  })

  it('drops the faces and cities of a market taken away', async () => {
    server()
    renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await user.click(screen.getByRole('checkbox', { name: 'Denver' }))
    await user.click(await findFace('Colfax Ave, North Face'))
    await user.click(screen.getByRole('checkbox', { name: 'Aurora' }))
    await user.click(screen.getByRole('checkbox', { name: 'Oakland' }))
    await user.click(screen.getByRole('checkbox', { name: 'SF Bay Area' }))
    await waitFor(() => expect(screen.getByText('(1 chosen)')).toBeInTheDocument())
    expect(screen.queryByRole('checkbox', { name: 'Oakland' })).not.toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'Aurora' })).toBeChecked()
  })
})
