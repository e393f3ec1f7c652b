import { describe, expect, it } from 'vitest'
import type { ExamQuestion } from '../../platform/api-types/partners'
import { chartSeries, choose, examAnswers, fullNameError, inviteErrors, missingAnswer, yearsDownTo2018 } from './rules'

const single: ExamQuestion = { id: 'q1', text: 'One?', optionType: 'single', points: 1, options: [{ id: 'a', text: 'A' }, { id: 'b', text: 'B' }] }
const multiple: ExamQuestion = { id: 'q2', text: 'Many?', optionType: 'multiple', points: 2, options: [{ id: 'a', text: 'A' }, { id: 'b', text: 'B' }, { id: 'c', text: 'C' }] }

describe('the invite-client rules (B §5)', () => {
  it('wants a full name present, of at least two words', () => {
    expect(fullNameError('')).toBe('Full name must be present')
    expect(fullNameError('   ')).toBe('Full name must be present')
    expect(fullNameError('Ada')).toBe("Please enter the client's first and last name.")
    expect(fullNameError('  Ada   Lovelace ')).toBeNull()
    expect(fullNameError('Ada King Lovelace')).toBeNull()
  })

  it('wants a valid email and a company name of at most 100 characters', () => {
    expect(inviteErrors({ full_name: 'Ada Lovelace', email: '', company: '' })).toEqual({ email: 'Required' })
    expect(inviteErrors({ full_name: 'Ada', email: 'not-an-email', company: 'x'.repeat(101) })).toEqual({
      full_name: "Please enter the client's first and last name.",
      email: '* Invalid email address',
      company: "Please enter the client's company name (at most 100 characters).",
    })
    expect(inviteErrors({ full_name: 'Ada Lovelace', email: 'ada@example.com', company: '' })).toEqual({})
  })
})

describe('the exam rules (B §5)', () => {
  it('names the first question without an answer', () => {
    // The question's number, as the page shows it, not its id.
    expect(missingAnswer([single, multiple], {})).toEqual({ id: 'q1', message: 'You must answer the question 1!' })
    expect(missingAnswer([single, multiple], { q1: ['a'] })).toEqual({ id: 'q2', message: 'You must answer the question 2!' })
    expect(missingAnswer([multiple, single], { q2: ['a'] })).toEqual({ id: 'q1', message: 'You must answer the question 2!' })
    expect(missingAnswer([single, multiple], { q1: ['a'], q2: [] })).toEqual({ id: 'q2', message: 'You must answer the question 2!' })
    expect(missingAnswer([single, multiple], { q1: ['a'], q2: ['b'] })).toBeNull()
  })

  it('keeps one option of a single-choice question and any of a multiple-choice one', () => {
    let c = choose(single, {}, 'a', true)
    c = choose(single, c, 'b', true)
    expect(c.q1).toEqual(['b'])
    c = choose(multiple, c, 'a', true)
    c = choose(multiple, c, 'c', true)
    expect(c.q2).toEqual(['a', 'c'])
    c = choose(multiple, c, 'a', false)
    expect(c.q2).toEqual(['c'])
    expect(examAnswers([single, multiple], c)).toEqual([
      { questionId: 'q1', answers: ['b'] },
      { questionId: 'q2', answers: ['c'] },
    ])
  })
})

describe('the year selectors and the hub chart (B §9)', () => {
  it('run from the current year down to 2018', () => {
    expect(yearsDownTo2018(new Date(2021, 5, 1))).toEqual([2021, 2020, 2019, 2018])
    expect(yearsDownTo2018(new Date(2018, 0, 1))).toEqual([2018])
  })

  it('fills 12 months, zero where nothing was billed', () => {
    const { earnings, campaigns } = chartSeries([
      { _id: { month: 2 }, totalBonus: 12.5, campaignCount: 1 },
      { _id: { month: 12 }, totalBonus: 40, campaignCount: 3 },
    ])
    expect(earnings).toEqual([0, 12.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 40])
    expect(campaigns).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3])
  })
})
