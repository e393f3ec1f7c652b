import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import InSituPreview from './InSituPreview'
import { preflightDesign } from './preflight'
import PreflightPanel from './PreflightPanel'

describe('PreflightPanel', () => {
  it('shows each check with its level in words, its message and hint, and the score', () => {
    const report = preflightDesign({ width: 1400, height: 400, background: '#ffffff', elements: [{ kind: 'text', x: 200, y: 100, width: 900, height: 150, text: 'Big sale', font_size: 150, fill: '#dddddd' }] })
    render(<PreflightPanel report={report} />)
    expect(screen.getByText(`Score ${report.score}/100`)).toBeInTheDocument()
    const items = screen.getAllByRole('listitem')
    expect(items).toHaveLength(7)
    expect(screen.getByText('Contrast: Fail.')).toBeInTheDocument()
    expect(screen.getByText(/Use dark text on a light background or the reverse, with a contrast of at least 7:1/)).toBeInTheDocument()
    expect(screen.getByText('Night brightness: Fail.')).toBeInTheDocument()
    expect(screen.getByText(/Warnings are advice/)).toBeInTheDocument()
  })

  it('has an empty, a loading and an error state', () => {
    const { rerender } = render(<PreflightPanel empty="Choose a creative." />)
    expect(screen.getByText('Choose a creative.')).toBeInTheDocument()
    rerender(<PreflightPanel loading />)
    expect(screen.getByText('Checking the creative…')).toBeInTheDocument()
    rerender(<PreflightPanel error="The pre-flight could not be made." />)
    expect(screen.getByText('The pre-flight could not be made.')).toBeInTheDocument()
  })
})

describe('InSituPreview', () => {
  const face = { name: 'Main St, North Face', width_ft: 48, height_ft: 14, viewing_distance_ft: 250 }

  it('shows a face without a photo flat, says so, and switches light and view by radio', async () => {
    const user = userEvent.setup()
    render(<InSituPreview face={face} creativeUrl="/c.png" creativeAlt="Sale" />)
    const figure = screen.getByRole('img', { name: /Sale on Main St, North Face, by day \(no photo of this face: shown flat\)/ })
    expect(figure).toBeInTheDocument()
    expect(screen.getByText(/An admin has not marked this face’s screen on a photo yet/)).toBeInTheDocument()
    await user.click(screen.getByRole('radio', { name: 'Night' }))
    await user.click(screen.getByRole('radio', { name: 'Drive-by' }))
    expect(screen.getByRole('img', { name: /at night, as a driver sees it from 250 ft/ })).toBeInTheDocument()
  })

  it('asks the server for the preview of a face it cannot draw', async () => {
    const user = userEvent.setup()
    const { container } = render(<InSituPreview face={face} creativeUrl="/c.png" creativeAlt="Sale" serverPreview={(l, v) => `/p?light=${l}&view=${v}`} />)
    const sources = () => [...container.querySelectorAll('img')].map((i) => i.getAttribute('src'))
    expect(sources()).toContain('/p?light=day&view=photo')
    await user.click(screen.getByRole('radio', { name: 'Night' }))
    expect(sources()).toContain('/p?light=night&view=photo')
  })
})
