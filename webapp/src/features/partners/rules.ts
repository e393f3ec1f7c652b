import { FirstYear, MsgAnswerMissing, MsgFullName, MsgFullNameWords } from '../../platform/api-types/partners'
import { MsgCertificationOff, MsgCertificationOn } from '../../platform/api-types/identity'
import type { ExamAnswer, ExamQuestion } from '../../platform/api-types/partners'
import { isEmail, MSG_INVALID_EMAIL } from '../../platform/inputs/emailRules'

// The partner screens' rules (B §2 "Partner program", B §5, B §8, B §9). The server checks every
// one of them again (docs/partners.md).

/** B §9: the year selectors run from the current year down to 2018. */
export function yearsDownTo2018(now: Date = new Date()): number[] {
  const years: number[] = []
  for (let y = now.getFullYear(); y >= FirstYear; y -= 1) years.push(y)
  return years
}

/** B §2 /codes-redeemed: 10 per page by default. */
export const CODES_PAGE_SIZES = [10, 20, 50]
/** /campaings-linked: the server's page sizes (docs/partners.md). */
export const CAMPAIGNS_PAGE_SIZES = [10, 20, 50, 100, 0] // 0: All
/** /admin/special-users: the server's page sizes; default 50. */
export const SPECIAL_PAGE_SIZES = [10, 20, 50, 75, 100, 0] // 0: All

/** B §2 and B §8 messages of these screens. */
export const MSG_HUB_FAILED = 'Sorry! something went wrong, please try again'
export const CONFIRM_CERT_OFF = 'Are you sure you want to remove certification?'
export const CONFIRM_CERT_ON = 'Are you sure you want to activate certification?'
export const MSG_CERT_OFF = MsgCertificationOff
export const MSG_CERT_ON = MsgCertificationOn

/**
 * B §5: the invite-ambassador full name must be present ('Full name must be present') and have at
 * least two words (the server's MsgFullNameWords otherwise). Null when the name is fine.
 */
export function fullNameError(name: string): string | null {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return MsgFullName
  if (words.length < 2) return MsgFullNameWords
  return null
}

export interface InviteForm {
  full_name: string
  email: string
  company: string
}

/** The invite-client form's field errors (empty when it may be sent). */
export function inviteErrors(form: InviteForm): Record<string, string> {
  const errors: Record<string, string> = {}
  const name = fullNameError(form.full_name)
  if (name) errors.full_name = name
  if (!form.email.trim()) errors.email = 'Required'
  else if (!isEmail(form.email)) errors.email = MSG_INVALID_EMAIL
  if ([...form.company.trim()].length > 100) errors.company = "Please enter the client's company name (at most 100 characters)."
  return errors
}

/** The chosen options, per question id. */
export type ExamChoices = Record<string, string[]>

/**
 * B §5: every question needs at least one answer. Answers the first question without one and its
 * message, with the question's number as the page shows it ('You must answer the question 2!';
 * Item 6), or null.
 */
export function missingAnswer(questions: readonly ExamQuestion[], choices: ExamChoices): { id: string; message: string } | null {
  const index = questions.findIndex((q) => (choices[q.id] ?? []).length === 0)
  return index < 0 ? null : { id: questions[index]!.id, message: MsgAnswerMissing.replace('%s', String(index + 1)) }
}

/** Toggles an option: a single-choice question keeps one, a multiple-choice one any number. */
export function choose(question: ExamQuestion, choices: ExamChoices, option: string, checked: boolean): ExamChoices {
  const current = choices[question.id] ?? []
  let next: string[]
  if (question.optionType !== 'multiple') next = checked ? [option] : []
  else next = checked ? [...current.filter((o) => o !== option), option] : current.filter((o) => o !== option)
  return { ...choices, [question.id]: next }
}

/** B §3: the answer list the exam's PUT carries, in the questions' order. */
export function examAnswers(questions: readonly ExamQuestion[], choices: ExamChoices): ExamAnswer[] {
  return questions.map((q) => ({ questionId: q.id, answers: choices[q.id] ?? [] }))
}

/** "Status" of an invited client on /invite, in words. */
export function inviteStatusLabel(status: string): string {
  switch (status) {
    case 'invited':
      return 'Invited'
    case 'active':
      return 'Active'
    case 'expired':
      return 'Link expired'
    default:
      return status
  }
}

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** The hub chart's 12 months: Earnings (the bonus, dollars) and Campaigns (campaigns billed). */
export function chartSeries(stats: readonly { _id: { month: number }; totalBonus: number; campaignCount: number }[]) {
  const earnings = new Array<number>(12).fill(0)
  const campaigns = new Array<number>(12).fill(0)
  for (const s of stats) {
    const i = s._id.month - 1
    if (i >= 0 && i < 12) {
      earnings[i] = s.totalBonus
      campaigns[i] = s.campaignCount
    }
  }
  return { earnings, campaigns }
}
