import 'driver.js/dist/driver.css'
import './tour.css'
import { driver, type Driver } from 'driver.js'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useLocation } from 'react-router'
import Confirm from '../Confirm'
import { toDriveSteps, type TourStep } from './steps'

export type TourEnd = 'finished' | 'cancelled' | 'left'

export interface GuidedTourProps {
  steps: readonly TourStep[]
  /** The tour runs while this is true; the caller turns it off in onEnd. */
  running: boolean
  onEnd: (how: TourEnd) => void
}

interface Handlers {
  finished: () => void
  closed: (atStep: number) => void
}

/** A driver.js tour of the steps, started at `at`. */
export function startDriver(steps: readonly TourStep[], at: number, on: Handlers): Driver {
  const d = driver({
    steps: toDriveSteps(steps),
    showProgress: true,
    progressText: 'Step {{current}} of {{total}}',
    nextBtnText: 'Next',
    prevBtnText: 'Back',
    doneBtnText: 'Finish',
    allowClose: true,
    overlayOpacity: 0.55,
    popoverClass: 'marquee-tour',
    onNextClick: (_el, _step, { driver: self }) => {
      if (self.isLastStep()) {
        self.destroy()
        on.finished()
      } else self.moveNext()
    },
    // The person closed it (×, Escape, a click outside): the caller asks before ending.
    onDestroyStarted: (_el, _step, { driver: self }) => {
      const index = self.getActiveIndex() ?? 0
      self.destroy()
      on.closed(index)
    },
  })
  d.drive(at)
  return d
}

/**
 * A small wrapper around driver.js for the guided tours (A §2, B §2): progress text, next and
 * back, the tour-cancel modal when the person closes it before the end (B §2), and it ends by
 * itself on any route change (B §2 "The tour ends on any route change").
 */
export default function GuidedTour({ steps, running, onEnd }: GuidedTourProps) {
  const { pathname } = useLocation()
  const driverRef = useRef<Driver | null>(null)
  const onEndRef = useRef(onEnd)
  const [askCancelAt, setAskCancelAt] = useState<number | null>(null)
  const startPath = useRef(pathname)
  const currentPath = useRef(pathname)
  // driver.js calls back long after a render: the callbacks read the latest props through refs,
  // kept up to date before the tour's effects run.
  useLayoutEffect(() => {
    onEndRef.current = onEnd
    currentPath.current = pathname
  })

  const run = (at: number) => {
    driverRef.current = startDriver(steps, at, {
      finished: () => {
        driverRef.current = null
        onEndRef.current('finished')
      },
      closed: (index) => {
        driverRef.current = null
        setAskCancelAt(index)
      },
    })
  }

  useEffect(() => {
    if (!running) return
    startPath.current = currentPath.current
    run(0)
    return () => {
      driverRef.current?.destroy()
      driverRef.current = null
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- run is a new function every render; the tour starts over only when it is asked to run or its steps change
  }, [running, steps])

  useEffect(() => {
    if (!running || pathname === startPath.current) return
    driverRef.current?.destroy()
    driverRef.current = null
    setAskCancelAt(null)
    onEndRef.current('left')
  }, [pathname, running])

  return (
    <Confirm
      open={askCancelAt !== null}
      title="End the tour?"
      message="You can take it again any time from your dashboard."
      confirmText="End the tour"
      cancelText="Continue the tour"
      onConfirm={() => {
        setAskCancelAt(null)
        onEndRef.current('cancelled')
      }}
      onCancel={() => {
        const at = askCancelAt ?? 0
        setAskCancelAt(null)
        run(at)
      }}
    />
  )
}
