import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { BAY_AREA, CHICAGO, makeFace } from '../../../test/faces'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

configure({ asyncUtilTimeout: 5000 })

const mission = makeFace({ location_name: 'Mission St', city: 'San Francisco' })
const loop = makeFace({ location_name: 'The Loop', market: 'Chicago', city: 'Chicago', lat: 41.88, lng: -87.63 })
const admin = () => signedInSession(makeUser({ role: 'admin' }))

describe('/admin/faces (issue 29)', { timeout: 20_000 }, () => {
  it('lists only the chosen market\'s faces: the market before is not listed while the new one loads', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    mockFetch({
      'GET /api/markets/': { body: [BAY_AREA, CHICAGO] },
      'GET /api/od/locations/': async ({ query }) => {
        if (query.get('market') === 'Chicago') await held
        return { body: [mission, loop].filter((f) => f.market === query.get('market')) }
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/faces', { session: admin() })
    const list = await screen.findByRole('list', { name: 'Faces' })
    expect(within(list).getByRole('button', { name: /Mission St/ })).toBeInTheDocument()

    await user.selectOptions(screen.getByLabelText('Market'), 'Chicago')
    // Before, the Bay Area's faces stayed listed here, and a click on one opened no editor once
    // Chicago's came.
    expect(await screen.findByText('Loading the faces')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Mission St/ })).not.toBeInTheDocument()

    release()
    await user.click(await screen.findByRole('button', { name: /The Loop/ }))
    await waitFor(() => expect(screen.getByRole('region', { name: 'Face editor' })).not.toHaveTextContent('Choose a face'))
  })
})
