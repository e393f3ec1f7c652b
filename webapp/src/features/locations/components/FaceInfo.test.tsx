import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { makeFace, makeSpot } from '../../../test/faces'
import FaceInfo from './FaceInfo'

const face = makeFace({
  location_name: 'Bay Bridge Approach',
  face: 'West Face',
  city: 'Oakland',
  market: 'SF Bay Area',
  value: 1000,
  ooh: 150000,
  new_location_snapshot: '/snapshots/bay.jpg',
  location: { ad_spot_duration: 10, ad_rotation_frequency: 8 },
})

describe('FaceInfo (the info window)', () => {
  it("shows the face, the week's price and impressions, the snapshot and the ad display text", () => {
    render(<FaceInfo face={face} spot={makeSpot(face, { min_value: 1250, ooh: 198899 })} week="2026-12-07" loading={false} others={[]} />)
    expect(screen.getByRole('heading', { name: 'Bay Bridge Approach' })).toBeInTheDocument()
    for (const text of ['West Face', 'Oakland', 'SF Bay Area', '$1,250', '198,899']) expect(screen.getByText(text)).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Photo of Bay Bridge Approach' })).toHaveAttribute('src', '/snapshots/bay.jpg')
    expect(screen.getByTestId('face-availability')).toHaveTextContent('Available for the week of Dec 07, 2026')
    expect(screen.getByTestId('face-display-text')).toHaveTextContent('Monday through Sunday, for 10 seconds at a rotation frequency of 1 in 8.')
  })

  it.each([
    [{ available: false }, '2026-12-07', false, 'Sold out for the week of Dec 07, 2026'],
    [undefined, '2026-12-07', true, 'Checking availability…'],
    [undefined, null, false, 'Choose a Monday to see availability'],
    [undefined, '2026-12-07', false, 'Availability for the week of Dec 07, 2026 is not known'],
  ])('with spot %j for week %s (loading %s) says %s', (spot, week, loading, text) => {
    render(<FaceInfo face={face} spot={spot && makeSpot(face, spot)} week={week} loading={loading} others={[]} />)
    expect(screen.getByTestId('face-availability')).toHaveTextContent(text)
  })

  it('falls back to the base price without a spot and links the other side of a double-faced sign', async () => {
    const other = makeFace({ location_name: 'Bay Bridge Approach', face: 'East Face' })
    const onShowFace = vi.fn()
    render(<FaceInfo face={face} spot={undefined} week={null} loading={false} others={[other]} onShowFace={onShowFace} />)
    expect(screen.getByText('$1,000')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'East Face' }))
    expect(onShowFace).toHaveBeenCalledWith(other.id)
  })
})
