import { useEffect, useEffectEvent, useId, useRef, type ReactNode, type RefObject } from 'react'
import { createPortal } from 'react-dom'
import { registerOpenModal } from './modals'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export interface ModalProps {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  /** Buttons shown at the bottom. */
  footer?: ReactNode
  /** Optional text under the title; becomes the dialog's description. */
  description?: ReactNode
  /** Which element gets the focus first; by default the first focusable one in the body. */
  initialFocus?: RefObject<HTMLElement | null>
  size?: 'sm' | 'md' | 'lg'
  /** A click on the backdrop closes the dialog (default true). */
  closeOnBackdrop?: boolean
}

const widths = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-2xl' }

/**
 * An accessible modal dialog: role=dialog, aria-modal, labelled by its title, focus kept inside,
 * Escape closes, and the focus goes back where it was.
 */
export default function Modal(props: ModalProps) {
  if (!props.open) return null
  return createPortal(<OpenModal {...props} />, document.body)
}

function OpenModal({ title, onClose, children, footer, description, initialFocus, size = 'md', closeOnBackdrop = true }: ModalProps) {
  const titleId = useId()
  const descriptionId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const onCloseRef = useRef(onClose)
  useEffect(() => {
    onCloseRef.current = onClose
  })

  const initialTarget = useEffectEvent(() => initialFocus?.current ?? panel.current?.querySelector<HTMLElement>(`[data-autofocus], ${FOCUSABLE}`) ?? panel.current)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const registration = registerOpenModal(() => onCloseRef.current())
    initialTarget()?.focus()

    const onKeyDown = (event: KeyboardEvent) => {
      if (!registration.isTop() || !panel.current) return
      if (event.key === 'Escape') {
        event.preventDefault()
        onCloseRef.current()
        return
      }
      if (event.key !== 'Tab') return
      const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE))
      if (items.length === 0) {
        event.preventDefault()
        panel.current.focus()
        return
      }
      const first = items[0]!
      const last = items[items.length - 1]!
      const active = document.activeElement
      if (event.shiftKey && (active === first || !panel.current.contains(active))) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (active === last || !panel.current.contains(active))) {
        event.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKeyDown)
    const { overflow } = document.body.style
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      registration.unregister()
      document.body.style.overflow = overflow
      if (previous && document.contains(previous)) previous.focus()
    }
    // The dialog sets itself up once per opening; onClose is read through a ref.
  }, [])

  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center p-0 sm:items-center sm:p-4">
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-slate-900/50 backdrop-blur-[1px]"
        onClick={() => closeOnBackdrop && onCloseRef.current()}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={`relative flex max-h-[90vh] w-full ${widths[size]} flex-col rounded-t-2xl bg-white shadow-xl outline-none sm:rounded-2xl`}
      >
        <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-6 py-4">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description && (
              <div id={descriptionId} className="mt-1 text-sm text-slate-600">
                {description}
              </div>
            )}
          </div>
          <button type="button" className="-mr-2 rounded-lg p-2 text-slate-500 hover:bg-slate-100" aria-label="Close" onClick={() => onCloseRef.current()}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
              <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4z" />
            </svg>
          </button>
        </div>
        <div className="overflow-y-auto px-6 py-4">{children}</div>
        {footer && <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 px-6 py-4">{footer}</div>}
      </div>
    </div>
  )
}
