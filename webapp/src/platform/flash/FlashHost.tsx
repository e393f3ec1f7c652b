import { useEffect } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { useLocation } from 'react-router'
import { flashDismissed, flashShown, selectFlashes, takeCarriedFlashes, type FlashMessage } from './flash'

const tone: Record<FlashMessage['type'], string> = {
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  danger: 'border-red-200 bg-red-50 text-red-900',
  info: 'border-sky-200 bg-sky-50 text-sky-900',
}

const icon: Record<FlashMessage['type'], string> = {
  success: 'M5 13l4 4L19 7',
  danger: 'M12 9v4m0 4h.01M10.29 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z',
  info: 'M13 16h-1v-4h-1m1-4h.01M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z',
}

function FlashItem({ message }: { message: FlashMessage }) {
  const dispatch = useDispatch()
  useEffect(() => {
    if (message.duration === null) return
    const timer = setTimeout(() => dispatch(flashDismissed(message.id)), message.duration)
    return () => clearTimeout(timer)
  }, [dispatch, message.id, message.duration])

  return (
    <div
      role={message.type === 'danger' ? 'alert' : 'status'}
      // The message lets clicks through to what is under it (a dialog's close button, a page's
      // main action): only its dismiss button takes the pointer.
      className={`pointer-events-none flex w-full items-start gap-3 rounded-xl border px-4 py-3 shadow-lg ${tone[message.type]}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 h-5 w-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d={icon[message.type]} />
      </svg>
      <p className="flex-1 text-sm font-medium">{message.text}</p>
      <button
        type="button"
        className="pointer-events-auto -m-1 rounded p-1 opacity-70 hover:opacity-100"
        aria-label="Dismiss message"
        onClick={() => dispatch(flashDismissed(message.id))}
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
    </div>
  )
}

/** Shows the flash messages, and on every page change the ones carried to it. */
export default function FlashHost() {
  const messages = useSelector(selectFlashes)
  const dispatch = useDispatch()
  const { pathname } = useLocation()

  useEffect(() => {
    for (const carried of takeCarriedFlashes()) {
      dispatch(flashShown(carried.text, carried.type, carried.duration))
    }
  }, [dispatch, pathname])

  return (
    <div
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-3 z-[60] mx-auto flex w-full max-w-md flex-col gap-2 px-3 sm:top-20 sm:right-4 sm:left-auto sm:mx-0 sm:px-0"
    >
      {messages.map((m) => (
        <FlashItem key={m.id} message={m} />
      ))}
    </div>
  )
}
