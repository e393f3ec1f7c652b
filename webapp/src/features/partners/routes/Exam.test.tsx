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
  attempts_left: 3,
  next_attempt_at: null,
  questions: [
    { id: 'q1', text: 'On which day must a campaign start?', optionType: 'single', points: 1, options: [{ id: 'a', text: 'Any day' }, { id: 'b', text: 'Monday' }] },
    { id: 'q2', text: 'Which frequencies?', optionType: 'multiple', points: 2, options: [{ id: 'a', text: 'One week' }, { id: 'b', text: 'Ongoing' }] },
  ],
}

/** A failed attempt's answer: the score and points only (B §4), and the attempts left today. */
const failed = (attemptsLeft: number, next: string | null) => ({
  success: false,
  message: 'You did not reach the pass mark this time.',
  questions: [],
  points: 1,
  max_points: 3,
  score: 33,
  user: { id: 'u', certified: false, certificate: null },
  promo: null,
  attempts_left: attemptsLeft,
  next_attempt_at: next,
})

beforeEach(() => {
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo
  Element.prototype.scrollIntoView = vi.fn()
})

describe('/admin/special-users/exam', () => {
  it('refuses a question without an answer, then shows the score of a failed attempt and lets the user retake it', async () => {
    const user = userEvent.setup()
    const server = mockFetch({
      'GET /api/special/certified/exam': { body: exam },
      'PUT /api/special/certified/exam': {
        body: failed(2, null),
      },
    })
    const session = signedInSession(makeUser({ companyType: 'certified' }))
    const app = renderApp('/admin/special-users/exam', { session })
    await screen.findByText('On which day must a campaign start?')
    await user.click(screen.getByLabelText('Monday'))
    await user.click(screen.getByRole('button', { name: 'Submit answers' }))
    // B §5: the message names the question, by its number, for 5 seconds; the page
    // goes to that question and marks it.
    expect(app.store.getState().flash.messages).toEqual([expect.objectContaining({ text: 'You must answer the question 2!', type: 'danger', duration: 5000 })])
    const second = screen.getByTestId('question-2')
    expect(second).toHaveAttribute('aria-invalid', 'true')
    expect(within(second).getByRole('alert')).toHaveTextContent('You must answer the question 2!')
    expect(Element.prototype.scrollIntoView).toHaveBeenCalled()
    expect(screen.getByLabelText('One week')).toHaveFocus()
    expect(screen.getByTestId('question-1')).not.toHaveAttribute('aria-invalid')
    expect(server.called('PUT', '/api/special/certified/exam')).toHaveLength(0)

    await user.click(screen.getByLabelText('One week'))
    await user.click(screen.getByLabelText('Ongoing'))
    await user.click(screen.getByRole('button', { name: 'Submit answers' }))
    expect(await screen.findByTestId('exam-score')).toHaveTextContent('33%, 1 of 3 points')
    // The toast does not stay over the result, and the result says nothing of which
    // answers were right (B §4).
    expect(app.store.getState().flash.messages).toEqual([])
    expect(screen.getByTestId('exam-attempts-left')).toHaveTextContent('2 attempts left today.')
    expect(screen.queryByText(/correct/i)).toBeNull()
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

  it('says when the next attempt is allowed once the three of the day are used', async () => {
    const user = userEvent.setup()
    const next = '2026-11-27T05:00:00Z'
    mockFetch({
      'GET /api/special/certified/exam': { body: exam },
      'PUT /api/special/certified/exam': {
        body: failed(0, next),
      },
    })
    renderApp('/admin/special-users/exam', { session: signedInSession(makeUser({ companyType: 'certified' })) })
    await screen.findByText('On which day must a campaign start?')
    await user.click(screen.getByLabelText('Monday'))
    await user.click(screen.getByLabelText('Ongoing'))
    await user.click(screen.getByRole('button', { name: 'Submit answers' }))
    expect(await screen.findByTestId('exam-score')).toHaveTextContent('33%')
    expect(screen.queryByRole('button', { name: 'Take the exam again' })).toBeNull()
    const when = new Date(next).toLocaleString('en-US', { month: 'short', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
    expect(screen.getByTestId('exam-limit')).toHaveTextContent(`You have used your 3 attempts for today. You can take the exam again from ${when}.`)
  }, 20_000)

  it("shows the server's 429 and no exam form when the day's attempts are already used", async () => {
    const user = userEvent.setup()
    const limit = 'You have used your 3 attempts for today. You can take the exam again from Nov 27, 2026 at 12:00 AM EST.'
    mockFetch({
      'GET /api/special/certified/exam': { body: exam },
      'PUT /api/special/certified/exam': { status: 429, body: { success: false, message: limit, code: 'exam_attempts' } },
    })
    renderApp('/admin/special-users/exam', { session: signedInSession(makeUser({ companyType: 'certified' })) })
    await screen.findByText('On which day must a campaign start?')
    await user.click(screen.getByLabelText('Monday'))
    await user.click(screen.getByLabelText('Ongoing'))
    await user.click(screen.getByRole('button', { name: 'Submit answers' }))
    expect(await screen.findByTestId('exam-limit')).toHaveTextContent(limit)
    expect(screen.queryByRole('form', { name: 'Certification exam' })).toBeNull()
  }, 20_000)
})
