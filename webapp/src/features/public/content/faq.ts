export interface FaqItem {
  question: string
  answer: string
}

/** The handful of questions shown on the landing page; the full help centre is behind sign-in at /faq. */
export const FAQ_TEASER: readonly FaqItem[] = [
  {
    question: 'What is the smallest campaign I can run?',
    answer:
      'One billboard face for one week. To reach enough people to measure results, we suggest starting with a weekly budget of $500 or more.',
  },
  {
    question: 'When can my ad go live?',
    answer:
      'Campaigns start on a Monday and end on a Sunday. Book by Wednesday to start the following Monday; later bookings start the Monday after that.',
  },
  {
    question: 'Do I need a designer?',
    answer:
      'No. Build a 1400 × 400 ad in the browser with the ad builder, or upload a finished JPEG or TIFF of up to 10 MB. You can also ask our team to build one for you.',
  },
  {
    question: 'How do I know my ad ran?',
    answer:
      'Your campaign page shows minimum against actual impressions week by week, photo proofs of play from the screen owner, and downloadable PDF reports for finished weeks.',
  },
  {
    question: 'Can I stop a campaign?',
    answer:
      'Yes. Pause and resume a campaign from its page, or mark it complete to end it for good. Changes made by Wednesday apply from the next Monday; weeks already billed run as booked.',
  },
]
