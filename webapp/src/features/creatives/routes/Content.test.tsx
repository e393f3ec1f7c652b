import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import type { Content } from '../../../platform/api-types/creatives'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

function item(overrides: Partial<Content> = {}): Content {
  return {
    id: 'k1',
    customName: 'guide.pdf',
    name: 'Planning guide',
    type: 'doc',
    scope: ['standard'],
    tags: ['PLANNING'],
    status: 'active',
    description: 'How to plan.',
    relevant: false,
    awsUrl: '/creative/image?image=content%2Fguide.pdf',
    url: 'content/guide.pdf',
    thumb: '',
    youtube: '',
    created_at: '2026-11-20T10:00:00Z',
    ...overrides,
  }
}

const page = (items: Content[]) => ({ body: { items, total: items.length, page: 1, page_size: 0 } })

describe('/content', () => {
  it('shows a regular user the cards without the management actions', async () => {
    const server = mockFetch({ 'GET /api/contents/': page([item(), item({ id: 'k2', name: 'Welcome', type: 'youtube', youtube: 'dQw4w9WgXcQ', relevant: true })]) })
    renderApp('/content', { session: signedInSession(makeUser()) })
    // The first render loads the advertiser bundle, hence the longer wait.
    const cards = await screen.findAllByTestId('content-card', undefined, { timeout: 5000 })
    expect(cards).toHaveLength(2)
    // A §3: the older type value doc reads as document.
    expect(within(cards[0]!).getByText('Document')).toBeInTheDocument()
    expect(within(cards[1]!).getByText('Relevant')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'New content' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Edit/ })).not.toBeInTheDocument()
    expect(server.called('GET', '/api/contents/')[0]!.query.get('page_size')).toBe('0')
  })

  it('gives admins 50 per page and the management actions (A §6, §9)', async () => {
    const server = mockFetch({ 'GET /api/contents/': page([item()]) })
    renderApp('/content', { session: signedInSession(makeUser({ role: 'admin' })) })
    await screen.findByTestId('content-card')
    expect(server.called('GET', '/api/contents/')[0]!.query.get('page_size')).toBe('50')
    expect(screen.getByRole('button', { name: 'New content' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: /Mark relevant/ })).toBeInTheDocument()
  })

  it('embeds a YouTube item through youtube-nocookie', async () => {
    mockFetch({ 'GET /api/contents/': page([item({ id: 'k2', name: 'Welcome', type: 'youtube', youtube: 'dQw4w9WgXcQ' })]) })
    const user = userEvent.setup()
    renderApp('/content', { session: signedInSession(makeUser()) })
    await user.click(await screen.findByRole('button', { name: 'View Welcome' }))
    const dialog = await screen.findByRole('dialog', { name: 'Welcome' })
    expect(within(dialog).getByTitle('YouTube video: Welcome')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
  })

  it('adds tags on Enter, uppercased, without empty or repeated ones', async () => {
    mockFetch({ 'GET /api/contents/': page([]) })
    const user = userEvent.setup()
    renderApp('/content', { session: signedInSession(makeUser({ role: 'admin' })) })
    await user.click((await screen.findAllByRole('button', { name: 'New content' }))[0]!)
    const tags = screen.getByLabelText('Tags')
    await user.type(tags, 'summer{Enter}Summer{Enter}   {Enter}fall{Enter}')
    const added = screen.getByRole('list', { name: 'Tags added' })
    expect(within(added).getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual(['SUMMER', 'FALL'])
    // Enter in the tags input does not submit the form.
    expect(screen.queryByText('Sorry! you must first upload your content')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Save content' }))
    await waitFor(() => expect(screen.getByText('Sorry! you must first upload your content')).toBeInTheDocument())
  })
})
