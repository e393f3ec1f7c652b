import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

const exam = {
  pass_mark: 80,
  certified: false,
  certificate: null,
  questions: [
    { id: 'q1', text: 'On which day must a campaign start?', optionType: 'single', points: 1, options: [{ id: 'a', text: 'Any day' }, { id: 'b', text: 'Monday' }] },
    { id: 'q2', text: 'Which frequencies?', optionType: 'multiple', points: 2, options: [{ id: 'a', text: 'One week' }, { id: 'b', text: 'Ongoing' }] },
  ],
}

beforeEach(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo
})

describe('/admin/special-users/exam', () => {
  it('refuses a question without an answer, then shows the score of a failed attempt and lets the user retake it', async () => {
    const user = userEvent.setup()
    const server = mockFetch({
      'GET /api/special/certified/exam': { body: exam },
      'PUT /api/special/certified/exam': {
        body: { success: false, message: 'You did not reach the pass mark this time.', questions: [], points: 1, max_points: 3, score: 33, user: { id: 'u', certified: false, certificate: null }, promo: null },
      },
    })
    const session = signedInSession(makeUser({ companyType: 'certified' }))
    const app = renderApp('/admin/special-users/exam', { session })
    await screen.findByText('On which day must a campaign start?')
    await user.click(screen.getByLabelText('Monday'))
    await user.click(screen.getByRole('button', { name: 'Submit answers' }))
    // B §5: the message names the question, for 5 seconds, and the page goes to the top.
    expect(app.store.getState().flash.messages).toEqual([expect.objectContaining({ text: 'You must answer the question q2!', type: 'danger', duration: 5000 })])
    expect(window.scrollTo).toHaveBeenCalled()
    expect(server.called('PUT', '/api/special/certified/exam')).toHaveLength(0)

    await user.click(screen.getByLabelText('One week'))
    await user.click(screen.getByLabelText('Ongoing'))
    await user.click(screen.getByRole('button', { name: 'Submit answers' }))
    expect(await screen.findByTestId('exam-score')).toHaveTextContent('33%, 1 of 3 points')
    expect(server.called('PUT', '/api/special/certified/exam')[0]!.body).toEqual({
      answers: [
        { questionId: 'q1', answers: ['b'] },
        { questionId: 'q2', answers: ['a', 'b'] },
      ],
    })
    await user.click(screen.getByRole('button', { name: 'Take the exam again' }))
    expect(screen.getByLabelText('Monday')).not.toBeChecked()
  }, 20_000)

  it('shows the certificate and the promo of a pass, and the user becomes certified', async () => {
    const user = userEvent.setup()
    mockFetch({
      'GET /api/special/certified/exam': { body: exam },
      'PUT /api/special/certified/exam': {
        body: {
          success: true,
          message: 'Congratulations! You passed the exam: you are now a certified partner.',
          questions: [],
          points: 3,
          max_points: 3,
          score: 100,
          user: { id: 'u', certified: true, certificate: { number: 'MQ-2026-ABCD1234', date: '2026-11-25' } },
          promo: { code: 'CERT-XYZ', value: 100 },
        },
      },
    })
    const session = signedInSession(makeUser({ companyType: 'certified' }))
    const app = renderApp('/admin/special-users/exam', { session })
    await screen.findByText('On which day must a campaign start?')
    await user.click(screen.getByLabelText('Monday'))
    await user.click(screen.getByLabelText('One week'))
    await user.click(screen.getByRole('button', { name: 'Submit answers' }))
    const passed = await screen.findByRole('region', { name: 'You passed: you are a certified partner' })
    expect(within(passed).getByTestId('certificate')).toHaveTextContent('MQ-2026-ABCD1234')
    expect(within(passed).getByTestId('exam-promo')).toHaveTextContent('CERT-XYZ')
    await waitFor(() => expect(app.store.getState().session.user?.certified).toBe(true))
  }, 20_000)
})
