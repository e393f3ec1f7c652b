import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { describe, expect, it, vi } from 'vitest'
import { makeStore } from '../../../app/store'
import type { PlacePrediction } from '../../../platform/api-types/locations'
import { mockFetch } from '../../../test/fetch'
import PlaceSearch from './PlaceSearch'

const note = 'Street addresses cannot be looked up here, so this is the town: distances are measured from the centre of Chicago, IL.'

function renderSearch(onPick = vi.fn<(p: PlacePrediction) => void>()) {
  render(
    <Provider store={makeStore()}>
      <PlaceSearch id="place" label="Place" onPick={onPick} />
    </Provider>,
  )
  return onPick
}

describe('PlaceSearch', () => {
  it('says when a street address was answered by its town, and keeps the note once picked', async () => {
    mockFetch({
      'GET /api/places/predictions': ({ query }) => ({
        body: query.get('input') === '233 S Wacker Dr, Chicago' ? [{ id: '4887398', value: 'Chicago, IL', approximate: true, note }] : [],
      }),
    })
    const user = userEvent.setup()
    const onPick = renderSearch()
    const input = screen.getByRole('combobox', { name: 'Place' })
    await user.type(input, '233 S Wacker Dr, Chicago')
    const listbox = await screen.findByRole('listbox', {}, { timeout: 2000 })
    const option = within(listbox).getByRole('option')
    expect(option).toHaveTextContent('Chicago, IL')
    expect(option).toHaveTextContent('Approximate: the town of this address')
    await user.click(option)
    expect(onPick).toHaveBeenCalledWith({ id: '4887398', value: 'Chicago, IL', approximate: true, note })
    const shown = screen.getByText(note)
    expect(shown).toHaveAttribute('role', 'status')
    expect(input.getAttribute('aria-describedby')).toContain(shown.id)
    // Typing again clears it.
    await user.type(input, 'x')
    expect(screen.queryByText(note)).not.toBeInTheDocument()
  })

  it('shows no note for an exact place', async () => {
    mockFetch({ 'GET /api/places/predictions': { body: [{ id: 'geo:41.87888,-87.63591', value: 'Willis Tower, 233 South Wacker Drive, Chicago, Illinois 60606' }] } })
    const user = userEvent.setup()
    renderSearch()
    await user.type(screen.getByRole('combobox', { name: 'Place' }), '233 S Wacker')
    const option = within(await screen.findByRole('listbox', {}, { timeout: 2000 })).getByRole('option')
    expect(option).not.toHaveTextContent('Approximate')
    await user.click(option)
    expect(screen.queryByText(/Street addresses/)).not.toBeInTheDocument()
  })
})
