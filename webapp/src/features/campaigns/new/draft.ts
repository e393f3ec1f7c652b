import type { Fields } from './formState'

// A half-filled new campaign survives leaving the page (the creative selector's hint sends people
// to the Ad Design Tool). The draft is kept in the browser, one per user, and is restored when
// /campaigns/new opens again; creating the campaign or "Discard draft" removes it.
// localStorage rather than sessionStorage: the Ad Design Tool may be opened in another tab.

/**
 * What the form keeps of a campaign not yet created: its fields (formState.ts), with the place
 * without its centre (read again on restore). Nothing secret: the card stays on the server.
 */
export type CampaignDraft = Omit<Fields, 'place'> & {
  savedAt: string
  place: { id: string; name: string } | null
}

/** The draft of the form's fields, saved at `now`. */
export function draftOf({ place, ...fields }: Fields, now: Date = new Date()): CampaignDraft {
  return { savedAt: now.toISOString(), ...fields, place: place ? { id: place.id, name: place.name } : null }
}

const VERSION = 1
/** A draft older than this is dropped: its weeks and prices are long gone. */
export const DRAFT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000

export const draftKey = (userId: string) => `marquee.campaign-draft.v${VERSION}.${userId}`

/** A draft worth keeping: the person has typed or chosen something of their own. */
export function hasContent(d: Pick<CampaignDraft, 'name' | 'markets' | 'place' | 'checked' | 'creative' | 'dailyText'>): boolean {
  return d.name.trim() !== '' || d.markets.length > 0 || d.place !== null || d.checked.length > 0 || d.creative !== null || d.dailyText.trim() !== ''
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null // storage blocked by the browser: the form simply keeps no draft
  }
}

/** The user's draft, or null when there is none, it is unreadable or too old. */
export function loadDraft(userId: string, now: Date = new Date()): CampaignDraft | null {
  const store = storage()
  const text = store?.getItem(draftKey(userId))
  if (!store || !text) return null
  try {
    const draft = JSON.parse(text) as CampaignDraft
    const age = now.getTime() - new Date(draft.savedAt).getTime()
    if (!(age >= 0 && age <= DRAFT_MAX_AGE_MS) || !Array.isArray(draft.checked) || !Array.isArray(draft.markets)) throw new Error('stale')
    return draft
  } catch {
    store.removeItem(draftKey(userId))
    return null
  }
}

/** Saves the draft, or removes it when nothing is left in it. */
export function saveDraft(userId: string, draft: CampaignDraft): void {
  const store = storage()
  if (!store) return
  try {
    if (hasContent(draft)) store.setItem(draftKey(userId), JSON.stringify(draft))
    else store.removeItem(draftKey(userId))
  } catch {
    // A full storage loses the draft, never the form.
  }
}

export function discardDraft(userId: string): void {
  storage()?.removeItem(draftKey(userId))
}
