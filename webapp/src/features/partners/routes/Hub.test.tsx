import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

// The chart draws with ApexCharts, which needs a layout engine jsdom lacks; its data is tested elsewhere.
vi.mock('../components/ApexEarningsChart', () => ({ default: () => <div data-testid="apex-chart" /> }))

const profile = {
  company_id: 'c1',
  company_name: 'Certified Media',
  type: 'certified',
  user_id: 'u1',
  first_name: 'Carl',
  last_name: 'Cert',
  email: 'carl@example.com',
  phone: '',
  website: '',
  about: '',
  promo_code: 'REF-ABC',
  linked: 2,
  total_bonus: 12.3,
  rate_percent: 10,
  certification_bonus: false,
  ambassador_rate_percent: 10,
  certified_rate_percent: 15,
  certified: false,
  certificate: null,
  exam_promo: null,
}

function serve(p: typeof profile | Record<string, unknown>) {
  mockFetch({
    'GET /api/special/hub': { body: { success: true, profile: p } },
    'GET /api/special/stats': { body: [] },
  })
}

// The header badge, the hub and the rate agree; DESIGN §1.11: the certified rate
// applies while one of the company's users holds a certificate.
describe('/admin/hub: the rate, the badge and the prompt agree', () => {
  it('a certified company without a certificate holder: the ambassador rate, the prompt, no badge', async () => {
    serve(profile)
    // The user's own flag says certified: the badge still follows the company's rate.
    renderApp('/admin/hub', { session: signedInSession(makeUser({ companyType: 'certified', certified: true })) })
    expect(await screen.findByTestId('hub-rate')).toHaveTextContent('10% the ambassador rate; 15% once a user of your company is certified')
    expect(screen.getByRole('region', { name: 'Your company is not certified yet' })).toBeInTheDocument()
    expect(screen.queryByTestId('certified-badge')).toBeNull()
  }, 20_000)

  it('a certificate holder in the company: 15% with the certification bonus, the badge, no prompt, and the unredeemed reward', async () => {
    serve({ ...profile, rate_percent: 15, certification_bonus: true, exam_promo: { code: 'CERT-XYZ', value: 100 } })
    renderApp('/admin/hub', { session: signedInSession(makeUser({ companyType: 'certified' })) })
    expect(await screen.findByTestId('hub-rate')).toHaveTextContent('15% with the certification bonus')
    expect(await screen.findByTestId('certified-badge')).toHaveTextContent('Certified')
    expect(screen.queryByRole('region', { name: 'Your company is not certified yet' })).toBeNull()
    expect(within(screen.getByTestId('hub-exam-promo')).getByText('CERT-XYZ')).toBeInTheDocument()
  }, 20_000)
})
