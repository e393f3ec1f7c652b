import { useState } from 'react'
import Modal from '../../../platform/Modal'

/** B §2 / B §9: the example-campaign slideshow has 9 slides. */
export const EXAMPLE_SLIDES: readonly { title: string; text: string }[] = [
  { title: 'Name your campaign', text: 'Give it a name you will recognise in your list, such as "Spring sale – Bay Area".' },
  { title: 'Hand-select your locations', text: 'Premium campaigns run at a fixed weekly rate on the billboard faces you choose.' },
  { title: 'Pick a strategy', text: 'Search an address and a radius around it, or choose a DMA market and narrow it to cities.' },
  { title: 'Choose faces on the map', text: 'Open a face to see its weekly price and audience, then check it. Grey faces are sold out that week.' },
  { title: 'Schedule it', text: 'Campaigns start on a Monday and end on a Sunday. Weeks booked after Wednesday start the Monday after next.' },
  { title: 'One week, weekly or ongoing', text: 'Run one week, until an end date you specify (up to 52 weeks), or keep it going week after week.' },
  { title: 'Watch your budget', text: 'Your weekly budget is the sum of the faces you chose, less any account credit, with the estimated impressions beside it.' },
  { title: 'Add your creative', text: 'Upload an ad, pick one from your library, or use your company default. A preview shows how it looks.' },
  { title: 'Review and confirm', text: 'Check every detail, add a card, and confirm. Your campaign becomes active once the first week is paid.' },
]

/** The example-campaign slideshow modal: one slide at a time, previous and next. */
export default function ExampleSlideshow({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [index, setIndex] = useState(0)
  const slide = EXAMPLE_SLIDES[index]!
  const close = () => {
    setIndex(0)
    onClose()
  }
  return (
    <Modal
      open={open}
      title="Example campaign"
      onClose={close}
      size="md"
      footer={
        <>
          <button type="button" className="btn-secondary" disabled={index === 0} onClick={() => setIndex((i) => i - 1)}>
            Previous
          </button>
          {index < EXAMPLE_SLIDES.length - 1 ? (
            <button type="button" className="btn-primary" onClick={() => setIndex((i) => i + 1)}>
              Next
            </button>
          ) : (
            <button type="button" className="btn-primary" onClick={close}>
              Done
            </button>
          )}
        </>
      }
    >
      <section aria-roledescription="slide" aria-label={`Slide ${index + 1} of ${EXAMPLE_SLIDES.length}`} className="space-y-2">
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">
          Slide {index + 1} of {EXAMPLE_SLIDES.length}
        </p>
        <h3 className="text-lg font-semibold text-slate-900">{slide.title}</h3>
        <p className="text-slate-600">{slide.text}</p>
        <div className="flex gap-1.5 pt-2" aria-hidden="true">
          {EXAMPLE_SLIDES.map((s, i) => (
            <span key={s.title} className={`h-1.5 flex-1 rounded-full ${i <= index ? 'bg-brand-600' : 'bg-slate-200'}`} />
          ))}
        </div>
      </section>
    </Modal>
  )
}
