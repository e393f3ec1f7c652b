import { useState, type FormEvent } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import { MsgAnswerMissing, type ExamQuestion, type ExamResult } from '../../../platform/api-types/partners'
import { formatDisplayDate } from '../../../platform/dates'
import { FLASH_MEDIUM_MS, flashDismissed, flashShown } from '../../../platform/flash/flash'
import { errorMessage, isApiError } from '../../../platform/http'
import { formatDollars } from '../../../platform/money'
import { selectUser, userUpdated } from '../../../platform/session'
import Spinner from '../../../platform/Spinner'
import { useExamQuery, useSubmitExamMutation } from '../api'
import { choose, examAnswers, missingAnswer, type ExamChoices } from '../rules'

function Question({
  question,
  index,
  chosen,
  error,
  onChoose,
}: {
  question: ExamQuestion
  index: number
  chosen: string[]
  error: string | null
  onChoose: (option: string, checked: boolean) => void
}) {
  const multiple = question.optionType === 'multiple'
  return (
    <fieldset
      className={`card scroll-mt-24 space-y-3 p-4 sm:p-5 ${error ? 'border-red-400 ring-2 ring-red-300' : ''}`}
      id={`question-${question.id}`}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? `question-${question.id}-error` : undefined}
      data-testid={`question-${index + 1}`}
    >
      <legend className="sr-only">
        Question {index + 1}: {question.text}
      </legend>
      <p className="font-medium text-slate-900" aria-hidden="true">
        <span className="mr-2 text-slate-500 tabular-nums">{index + 1}.</span>
        {question.text}
      </p>
      <p className="text-xs text-slate-500">
        {multiple ? 'Select all that apply' : 'Select one answer'} · {question.points} {question.points === 1 ? 'point' : 'points'}
      </p>
      {error && (
        <p id={`question-${question.id}-error`} className="text-sm font-medium text-red-700" role="alert">
          {error}
        </p>
      )}
      <div className="space-y-2">
        {question.options.map((o) => {
          const id = `q-${question.id}-${o.id}`
          return (
            <div key={o.id} className="flex items-start gap-3">
              <input
                id={id}
                type={multiple ? 'checkbox' : 'radio'}
                name={`q-${question.id}`}
                className="mt-1 h-4 w-4 accent-brand-700"
                checked={chosen.includes(o.id)}
                onChange={(e) => onChoose(o.id, e.target.checked)}
              />
              <label htmlFor={id} className="text-slate-800">
                {o.text}
              </label>
            </div>
          )
        })}
      </div>
    </fieldset>
  )
}

function isExamResult(value: unknown): value is ExamResult {
  return typeof value === 'object' && value !== null && typeof (value as ExamResult).score === 'number' && typeof (value as ExamResult).points === 'number'
}

function Passed({ result }: { result: ExamResult }) {
  const cert = result.user.certificate
  return (
    <section aria-labelledby="exam-passed" className="card space-y-3 border-emerald-200 p-4 sm:p-6">
      <h2 id="exam-passed" className="text-lg font-semibold text-emerald-900">
        You passed: you are a certified partner
      </h2>
      <p className="text-slate-700">{result.message}</p>
      <p className="text-slate-700">
        Score <strong className="tabular-nums">{result.score}%</strong> ({result.points} of {result.max_points} points).
      </p>
      {cert && (
        <p className="text-slate-700" data-testid="certificate">
          Certificate <strong className="font-mono">{cert.number}</strong>, issued {formatDisplayDate(cert.date)}.
        </p>
      )}
      {result.promo && (
        <p className="text-slate-700" data-testid="exam-promo">
          Your company's promo code: <strong className="font-mono">{result.promo.code}</strong>, worth {formatDollars(result.promo.value)} of campaign credit. Redeem it when you book.
        </p>
      )}
      <Link to="/admin/hub" className="btn-primary inline-flex">
        Go to your hub
      </Link>
    </section>
  )
}

/** When the next attempt is allowed, in the reader's words. */
function nextAttempt(at: string | null | undefined): string {
  if (!at) return 'tomorrow'
  return new Date(at).toLocaleString('en-US', { month: 'short', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
}

/**
 * /admin/special-users/exam (B §2, B §3 Exam result, B §5): the certification exam of a certified
 * company's users. Every question needs an answer ('You must answer the question {n}!' for 5 s,
 * with the question's number); the page scrolls to that question and marks it.
 * The server grades it. A pass shows the certificate and the promo; a failure the score and points
 * only (B §4), and the attempts left today: 3 a business day, then the page says when the next
 * one is allowed (DESIGN §1.13).
 */
export default function Exam() {
  const exam = useExamQuery()
  const [submit, { isLoading }] = useSubmitExamMutation()
  const [choices, setChoices] = useState<ExamChoices>({})
  const [result, setResult] = useState<ExamResult | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [limited, setLimited] = useState<string | null>(null)
  const [missingId, setMissingId] = useState<string | null>(null)
  const [toast, setToast] = useState<string | null>(null)
  const user = useSelector(selectUser)
  const dispatch = useDispatch()
  const questions = exam.data?.questions ?? []

  const toTop = () => window.scrollTo({ top: 0, behavior: 'smooth' })

  // The missing-answer toast must not stay over the result of the next attempt.
  const dismissToast = () => {
    if (toast) dispatch(flashDismissed(toast))
    setToast(null)
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    dismissToast()
    const missing = missingAnswer(questions, choices)
    setMissingId(missing?.id ?? null)
    if (missing) {
      const flash = flashShown(missing.message, 'danger', FLASH_MEDIUM_MS)
      dispatch(flash)
      setToast(flash.payload.id)
      const el = document.getElementById(`question-${missing.id}`)
      el?.scrollIntoView?.({ behavior: 'smooth', block: 'center' })
      el?.querySelector('input')?.focus({ preventScroll: true })
      return
    }
    try {
      const answer = await submit({ answers: examAnswers(questions, choices) }).unwrap()
      setResult(answer)
      if (answer.success && user && !user.certified) dispatch(userUpdated({ ...user, certified: true }))
    } catch (error) {
      // A failed attempt is a 200 with success false (B §3 Exam result): its score and points.
      if (isApiError(error) && error.status === 200 && isExamResult(error.body)) setResult(error.body)
      else if (isApiError(error) && error.status === 429) setLimited(errorMessage(error))
      else setFailure(errorMessage(error))
    }
    toTop()
  }

  const retake = () => {
    dismissToast()
    setChoices({})
    setResult(null)
    setMissingId(null)
    toTop()
  }

  const attemptsLeft = result ? result.attempts_left : (exam.data?.attempts_left ?? 3)
  const nextAt = result ? result.next_attempt_at : exam.data?.next_attempt_at
  const outOfAttempts = !!limited || (attemptsLeft <= 0 && !result?.success)

  if (exam.isLoading) {
    return (
      <div className="flex min-h-[40vh] items-center justify-center">
        <Spinner label="Loading the exam" className="h-8 w-8" />
      </div>
    )
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Certification exam</h1>
        <p className="mt-1 text-slate-600">
          {questions.length} questions about booking digital billboards on Marquee. Answer every question; you pass with {exam.data?.pass_mark ?? 80}% of the points.
        </p>
      </div>
      {exam.isError && <Alert>{errorMessage(exam.error)}</Alert>}
      {failure && <Alert>{failure}</Alert>}
      {outOfAttempts && (
        <Alert tone="info">
          <span data-testid="exam-limit">
            {limited ?? `You have used your 3 attempts for today.`} {!limited && `You can take the exam again from ${nextAttempt(nextAt)}.`}
          </span>
        </Alert>
      )}
      {exam.data?.certified && exam.data.certificate && !result && (
        <Alert tone="success">
          You are already certified: certificate {exam.data.certificate.number}, issued {formatDisplayDate(exam.data.certificate.date)}. You may take the exam again to practise.
        </Alert>
      )}
      {result?.success && <Passed result={result} />}
      {result && !result.success && (
        <section aria-labelledby="exam-failed" className="card space-y-3 p-4 sm:p-6">
          <h2 id="exam-failed" className="text-lg font-semibold text-slate-900">
            Not this time
          </h2>
          <p className="text-slate-700">{result.message}</p>
          <p className="text-slate-700" data-testid="exam-score">
            Your score: <strong className="tabular-nums">{result.score}%</strong>, {result.points} of {result.max_points} points.
          </p>
          {result.attempts_left > 0 && (
            <>
              <p className="text-sm text-slate-600" data-testid="exam-attempts-left">
                {result.attempts_left === 1 ? '1 attempt' : `${result.attempts_left} attempts`} left today.
              </p>
              <button type="button" className="btn-primary" onClick={retake}>
                Take the exam again
              </button>
            </>
          )}
        </section>
      )}
      {!result && !outOfAttempts && questions.length > 0 && (
        <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Certification exam">
          <p className="text-sm text-slate-600">
            {attemptsLeft === 1 ? '1 attempt' : `${attemptsLeft} attempts`} left today (3 a day).
          </p>
          {questions.map((q, i) => (
            <Question
              key={q.id}
              question={q}
              index={i}
              chosen={choices[q.id] ?? []}
              error={missingId === q.id ? MsgAnswerMissing.replace('%s', String(i + 1)) : null}
              onChoose={(o, checked) => {
                if (missingId === q.id) setMissingId(null)
                setChoices(choose(q, choices, o, checked))
              }}
            />
          ))}
          <button type="submit" className="btn-primary w-full sm:w-auto" disabled={isLoading}>
            {isLoading ? 'Grading…' : 'Submit answers'}
          </button>
        </form>
      )}
    </div>
  )
}
