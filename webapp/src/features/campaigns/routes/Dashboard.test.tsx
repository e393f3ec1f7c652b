import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIRM } from '../../../platform/Confirm'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

const counts = { body: { pending: 1, active: 3, completed: 4, paused: 2, total: 10 } }

describe('/dashboard (A §2)', () => {
  it('shows the pending, active, completed, paused and total counts, each linking to its list', async () => {
    mockFetch({ 'GET /api/campaigns/count': counts })
    renderApp('/dashboard', { session: signedInSession(makeUser()) })
    const section = await screen.findByRole('region', { name: 'Your campaigns' })
    await waitFor(() => expect(within(section).getByTestId('count-total')).toHaveTextContent('10'))
    const links = within(section).getAllByRole('link')
    expect(links.map((l) => l.textContent)).toEqual([
      'Pending campaigns:1',
      'Active campaigns:3',
      'Completed campaigns:4',
      'Paused campaigns:2',
      'Total campaigns:10',
    ])
    expect(links[1]).toHaveAttribute('href', '/campaigns?status=active')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('shows the tutorial video by itself once, with the relevant video content', async () => {
    const server = mockFetch({
      'GET /api/campaigns/count': counts,
      'GET /users/check-tutorial': { body: { tourCampaignShow: false, tutorialCampaignShowed: false } },
      'GET /api/contents/': {
        body: { items: [{ id: 'v1', name: 'Marquee in 3 minutes', type: 'video', relevant: true, awsUrl: '/files/tutorial.mp4', youtube: '' }], total: 1, page: 1, page_size: 1 },
      },
    })
    renderApp('/dashboard', { session: signedInSession(makeUser({ tutorialCampaignShowed: false, tourCampaignShow: false })) })
    const dialog = await screen.findByRole('dialog', { name: 'How Marquee works' })
    expect(await within(dialog).findByLabelText('Tutorial video: Marquee in 3 minutes')).toHaveAttribute('src', '/files/tutorial.mp4')
    expect(server.called('GET', '/users/check-tutorial')).toHaveLength(1)
  })

  it('lets the tour go first: no video while a tour is due', async () => {
    const server = mockFetch({ 'GET /api/campaigns/count': counts, 'GET /users/check-tutorial': { body: { tourCampaignShow: true, tutorialCampaignShowed: false } } })
    renderApp('/dashboard', { session: signedInSession(makeUser({ tutorialCampaignShowed: false, tourCampaignShow: true })) })
    await screen.findByRole('region', { name: 'Your campaigns' })
    await new Promise((r) => setTimeout(r, 200))
    expect(server.called('GET', '/users/check-tutorial')).toHaveLength(0)
    expect(screen.queryByRole('dialog', { name: 'How Marquee works' })).not.toBeInTheDocument()
  })

  it('gives the tour once: back on the dashboard it does not replay, and the video shows (issue 12 item 22)', async () => {
    Element.prototype.scrollIntoView = () => undefined
    const server = mockFetch({
      'GET /api/campaigns/count': counts,
      'GET /users/disable-tour': { body: { tourCampaignShow: false, tutorialCampaignShowed: false } },
      'GET /users/check-tutorial': { body: { tourCampaignShow: false, tutorialCampaignShowed: false } },
      'GET /api/contents/': { body: { items: [], total: 0, page: 1, page_size: 50 } },
      'GET /api/campaigns': { body: { items: [], total: 0, page: 1, page_size: 50, totals: {} } },
    })
    const { router, store } = renderApp('/dashboard', { session: signedInSession(makeUser({ tutorialCampaignShowed: false, tourCampaignShow: true })) })
    const popover = () => document.querySelector<HTMLElement>('.driver-popover')
    await waitFor(() => expect(popover()).toHaveTextContent('Step 1 of'))
    await waitFor(() => expect(store.getState().session.user?.tourCampaignShow).toBe(false))
    // No video over the running tour.
    expect(screen.queryByRole('dialog', { name: 'How Marquee works' })).not.toBeInTheDocument()

    await act(() => router.navigate('/campaigns'))
    await waitFor(() => expect(popover()).toBeNull())
    await act(() => router.navigate('/dashboard'))
    await screen.findByRole('region', { name: 'Your campaigns' })
    expect(await screen.findByRole('dialog', { name: 'How Marquee works' })).toBeInTheDocument()
    expect(popover()).toBeNull()
    expect(server.called('GET', '/users/disable-tour')).toHaveLength(1)
    expect(store.getState().session.user?.tutorialCampaignShowed).toBe(true)
  })

  it("offers a call for a free dashboard tour with B §8's default confirm", async () => {
    const server = mockFetch({
      'GET /api/campaigns/count': counts,
      'POST /users/tour-call': { body: { success: true, message: 'Great, someone will be in touch with you soon' } },
    })
    const user = userEvent.setup()
    renderApp('/dashboard', { session: signedInSession(makeUser()) })
    await user.click(await screen.findByRole('button', { name: 'Free dashboard tour' }))
    let dialog = await screen.findByRole('dialog', { name: DEFAULT_CONFIRM.title })
    expect(dialog).toHaveTextContent(DEFAULT_CONFIRM.message)
    await user.click(within(dialog).getByRole('button', { name: 'No, thanks' }))
    expect(await screen.findByText('No problem, but feel free to reach out to us anytime')).toBeInTheDocument()
    expect(server.called('POST', '/users/tour-call')).toHaveLength(0)

    await user.click(screen.getByRole('button', { name: 'Free dashboard tour' }))
    dialog = await screen.findByRole('dialog', { name: DEFAULT_CONFIRM.title })
    await user.click(within(dialog).getByRole('button', { name: 'Yes, call me' }))
    expect(await screen.findByText('Great, someone will be in touch with you soon')).toBeInTheDocument()
    expect(server.called('POST', '/users/tour-call')).toHaveLength(1)
  })

  it('says where to add a phone number when the call cannot be offered', async () => {
    mockFetch({
      'GET /api/campaigns/count': counts,
      'POST /users/tour-call': { status: 400, body: { success: false, message: 'Please check the form.', errors: { phone: 'Please add a phone number to your profile so we can call you.' } } },
    })
    const user = userEvent.setup()
    renderApp('/dashboard', { session: signedInSession(makeUser()) })
    await user.click(await screen.findByRole('button', { name: 'Free dashboard tour' }))
    await user.click(within(await screen.findByRole('dialog', { name: DEFAULT_CONFIRM.title })).getByRole('button', { name: 'Yes, call me' }))
    expect(await screen.findByText('Please add a phone number to your profile so we can call you.')).toBeInTheDocument()
  })

  it('takes a video tagged GUIDE when the relevant item is not a video', async () => {
    mockFetch({
      'GET /api/campaigns/count': counts,
      'GET /api/contents/': {
        body: {
          items: [
            { id: 'd1', name: 'Getting started', type: 'document', relevant: true, awsUrl: '/files/start.pdf', youtube: '', tags: ['GUIDE'] },
            { id: 'y0', name: 'Cat video', type: 'youtube', relevant: false, awsUrl: '', youtube: 'cats', tags: ['FUN'] },
            { id: 'y1', name: 'How digital billboards work', type: 'youtube', relevant: false, awsUrl: '', youtube: 'abc123', tags: ['VIDEO', 'GUIDE'] },
          ],
          total: 3,
          page: 1,
          page_size: 50,
        },
      },
    })
    renderApp('/dashboard', { session: signedInSession(makeUser()) })
    ;(await screen.findByRole('button', { name: 'Watch the tutorial' })).click()
    const dialog = await screen.findByRole('dialog', { name: 'How Marquee works' })
    expect(await within(dialog).findByTitle('Tutorial video: How digital billboards work')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/abc123')
  })

  it('opens the tutorial on demand, with the written guide when there is no video', async () => {
    mockFetch({ 'GET /api/campaigns/count': counts, 'GET /api/contents/': { body: { items: [], total: 0, page: 1, page_size: 1 } } })
    renderApp('/dashboard', { session: signedInSession(makeUser()) })
    ;(await screen.findByRole('button', { name: 'Watch the tutorial' })).click()
    const dialog = await screen.findByRole('dialog', { name: 'How Marquee works' })
    expect(await within(dialog).findByText('Pick billboards')).toBeInTheDocument()
  })
})
