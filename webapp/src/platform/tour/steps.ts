import type { DriveStep } from 'driver.js'

/** One step of a guided tour: the element it points at (a CSS selector; none = centred) and its text. */
export interface TourStep {
  element?: string
  title: string
  text: string
}

/** The driver.js steps of a tour. A missing element shows the popover centred, never breaks the tour. */
export function toDriveSteps(steps: readonly TourStep[]): DriveStep[] {
  return steps.map((s) => ({
    ...(s.element ? { element: () => document.querySelector(s.element!) ?? document.body } : {}),
    popover: { title: s.title, description: s.text },
  }))
}

/** The attribute the tours point at: `data-tour="name"` → `[data-tour="name"]`. */
export const tourTarget = (name: string) => `[data-tour="${name}"]`

/**
 * The dashboard tour (A §2, B §2). Its end continues on /campaigns/new (B §4: "Finishing the
 * dashboard tour lets the tour of the new-campaign screen continue").
 */
export const DASHBOARD_TOUR: readonly TourStep[] = [
  { title: 'Welcome to Marquee', text: 'This short tour shows you around. You can leave it at any time with Escape or the close button.' },
  { element: '[data-tour="dashboard-counts"]', title: 'Your dashboard', text: 'How many campaigns are pending, active, completed and paused, at a glance.' },
  { element: 'nav[aria-label="Main"] a[href="/campaigns"]', title: 'Campaigns', text: 'Every campaign you run: search, filter by status and open one to follow it week by week.' },
  { element: 'nav[aria-label="Main"] a[href="/creatives"]', title: 'Creatives', text: 'Upload your ads, or build one with the Ad Design Tool.' },
  { element: 'nav[aria-label="Main"] a[href="/content"]', title: 'Content library', text: 'Guides, images and videos to help you plan.' },
  { element: '[data-tour="dashboard-new-campaign"]', title: 'Create a campaign', text: 'Ready? Next we walk through the new-campaign form, step by step.' },
]
