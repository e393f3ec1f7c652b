import { FrequencyOneTime, FrequencyWeekly, StrategyMarket, TypeMaximumBudget, TypePremium } from '../../../platform/api-types/campaigns'
import type { Creative } from '../../../platform/api-types/creatives'
import { formatInputDate, parseApiDate, parseInputDate, compareDays } from '../../../platform/dates'
import { DEFAULT_RADIUS_MILES, defaultView, radiusView, type LatLng, type MapView } from '../../../platform/map/viewRules'
import { dailyAfterSelection, toCents, toDollars } from './budget'
import type { CampaignDraft } from './draft'
import { durationForFrequency, durationFromEnd, endDateFor, isMonday, keepAvailable, parseBudget, type FormField, type Frequency, type PriceData } from './rules'

// The campaign form's state, in one reducer: `fields` is what the person fills in (and what the
// draft of a new campaign keeps, draft.ts), `ui` is how the screen shows it.

/** What an edit starts from (GET /api/campaigns/{id}); empty for a new campaign. */
export interface InitialCampaign {
  name: string
  typeCampaign: number
  strategy: number
  markets: string[]
  cities: string[]
  place: { id: string; name: string } | null
  radius: number
  start: string
  end: string
  frequency: Frequency
  duration: number
  faceIds: string[]
  creativeId: string
  /** A renewal's creative, chosen already; an edit keeps creativeId instead. */
  creative?: Creative | null
  /** A renewed maximum-budget campaign's daily budget, in dollars. */
  dailyBudget?: number
}

export interface ChosenPlace {
  id: string
  name: string
  /** Read from the place's details; null until they arrive (a restored or edited place). */
  center: LatLng | null
}

export interface Fields {
  name: string
  typeCampaign: number
  strategy: number
  markets: string[]
  cities: string[]
  place: ChosenPlace | null
  radius: number
  startText: string
  frequency: Frequency
  duration: number
  endText: string
  checked: string[]
  creative: Creative | null
  useDefault: boolean
  dailyText: string
  /** B §3 promo_code {value}: the code redeemed in this flow; its amount is the promo credit of B §9. */
  promo: { code: string; amount: number } | null
}

export type PendingToggle = { kind: 'type'; value: number } | { kind: 'strategy'; value: number }
export type FormModal = 'creative' | 'card' | 'promo' | 'example' | 'review'
export type FormErrors = Partial<Record<FormField | string, string>>

export interface Ui {
  wantOnlyChecked: boolean
  selectedId: string | null
  view: MapView | null
  /** The map fits the faces once those of the chosen markets and cities have loaded. */
  fitPending: boolean
  errors: FormErrors
  /** A type or strategy change waiting for the person to confirm the reset (B §4). */
  pending: PendingToggle | null
  modal: FormModal | null
  submitting: boolean
  /** The "Draft restored." note is shown. */
  draftNote: boolean
}

export interface FormState {
  fields: Fields
  ui: Ui
}

export type FormAction =
  | { type: 'edited'; fields: Partial<Pick<Fields, 'name' | 'dailyText'>> }
  | { type: 'shown'; ui: Partial<Pick<Ui, 'wantOnlyChecked' | 'selectedId' | 'view' | 'modal' | 'pending' | 'submitting' | 'draftNote'>> }
  | { type: 'errorsFound'; errors: FormErrors }
  | { type: 'errorsAdded'; errors: FormErrors }
  | { type: 'defaultStartRead'; start: Date }
  | { type: 'startChanged'; text: string }
  | { type: 'frequencyChanged'; frequency: Frequency }
  | { type: 'endChanged'; text: string }
  | { type: 'faceChecked'; id: string }
  | { type: 'faceUnchecked'; id: string }
  | { type: 'pricesRead'; prices: ReadonlyMap<string, PriceData>; held: ReadonlySet<string> }
  | { type: 'marketsChosen'; markets: string[]; cities: string[]; checked: string[] }
  | { type: 'cityToggled'; city: string }
  | { type: 'placePicked'; place: ChosenPlace }
  | { type: 'placeRead'; place: ChosenPlace }
  | { type: 'placeNotFound'; message: string }
  | { type: 'radiusChanged'; radius: number }
  | { type: 'facesFitted'; view: MapView }
  | { type: 'toggleApplied'; toggle: PendingToggle }
  | { type: 'creativeChosen'; creative: Creative }
  | { type: 'useDefaultChanged'; useDefault: boolean }
  | { type: 'cardAdded' }
  | { type: 'promoRedeemed'; code: string; amount: number }

/** The weeks the campaign runs: the chosen duration for a specified end date, one otherwise. */
export const weeksOf = (fields: Pick<Fields, 'frequency' | 'duration'>) => (fields.frequency === FrequencyWeekly ? fields.duration : 1)

/** The form's first state: the restored draft of a new campaign, else the edited campaign, else empty. */
export function initFormState({ mode, initial, restored }: { mode: 'create' | 'edit'; initial?: InitialCampaign; restored: CampaignDraft | null }): FormState {
  const seedPlace = restored?.place ?? initial?.place
  const seed = restored ?? initial
  return {
    fields: {
      name: restored?.name ?? initial?.name ?? '',
      typeCampaign: restored?.typeCampaign ?? initial?.typeCampaign ?? TypePremium,
      strategy: restored?.strategy ?? initial?.strategy ?? StrategyMarket,
      markets: restored?.markets ?? initial?.markets ?? [],
      cities: restored?.cities ?? initial?.cities ?? [],
      place: seedPlace ? { ...seedPlace, center: null } : null,
      radius: restored?.radius || initial?.radius || DEFAULT_RADIUS_MILES,
      startText: restored?.startText ?? (initial ? formatInputDate(parseApiDate(initial.start) ?? new Date()) : ''),
      frequency: restored?.frequency ?? initial?.frequency ?? FrequencyOneTime,
      duration: restored?.duration ?? initial?.duration ?? 1,
      endText: restored?.endText ?? (initial ? formatInputDate(parseApiDate(initial.end) ?? new Date()) : ''),
      checked: restored?.checked ?? initial?.faceIds ?? [],
      creative: restored?.creative ?? initial?.creative ?? null,
      useDefault: restored?.useDefault ?? (mode === 'create' && !initial?.creative),
      dailyText: restored?.dailyText ?? (initial?.dailyBudget ? String(initial.dailyBudget) : ''),
      promo: restored?.promo ?? null,
    },
    ui: {
      wantOnlyChecked: false,
      selectedId: null,
      view: null,
      // A seeded market campaign fits the map to its faces once they load.
      fitPending: seed !== undefined && seed !== null && seed.strategy === StrategyMarket && seed.markets.length > 0,
      errors: {},
      pending: null,
      modal: null,
      submitting: false,
      draftNote: restored !== null,
    },
  }
}

const withFields = (state: FormState, fields: Partial<Fields>): FormState => ({ ...state, fields: { ...state.fields, ...fields } })
const withUi = (state: FormState, ui: Partial<Ui>): FormState => ({ ...state, ui: { ...state.ui, ...ui } })
const withErrors = (state: FormState, errors: FormErrors): FormState => withUi(state, { errors: { ...state.ui.errors, ...errors } })

/** The map follows a place's circle once its centre is known. */
const placeView = (state: FormState): FormState => (state.fields.place?.center ? withUi(state, { view: radiusView(state.fields.place.center, state.fields.radius) }) : state)

function step(state: FormState, action: FormAction): FormState {
  const { fields } = state
  switch (action.type) {
    case 'edited':
      return withFields(state, action.fields)
    case 'shown':
      return withUi(state, action.ui)
    case 'errorsFound':
      return withUi(state, { errors: action.errors })
    case 'errorsAdded':
      return withErrors(state, action.errors)
    case 'defaultStartRead':
      // The start date waits for the server's calendar (B §4 default, Wednesday cut-off).
      if (fields.startText) return state
      return withFields(state, { startText: formatInputDate(action.start), endText: formatInputDate(endDateFor(action.start, 1)) })
    case 'startChanged': {
      const start = parseInputDate(action.text)
      return withFields(state, { startText: action.text, ...(start && isMonday(start) ? { endText: formatInputDate(endDateFor(start, weeksOf(fields))) } : {}) })
    }
    case 'frequencyChanged': {
      const start = parseInputDate(fields.startText)
      const duration = durationForFrequency(action.frequency, fields.frequency === FrequencyWeekly ? fields.duration : undefined)
      return withFields(state, { frequency: action.frequency, duration, ...(start ? { endText: formatInputDate(endDateFor(start, duration)) } : {}) })
    }
    case 'endChanged': {
      const start = parseInputDate(fields.startText)
      const end = parseInputDate(action.text)
      return withFields(state, { endText: action.text, ...(start && end && compareDays(end, start) > 0 ? { duration: durationFromEnd(start, end) } : {}) })
    }
    case 'faceChecked':
      return withErrors(withFields(state, { checked: [...fields.checked, action.id] }), { locations: undefined })
    case 'faceUnchecked':
      return withFields(state, { checked: fields.checked.filter((id) => id !== action.id) })
    case 'pricesRead':
      // B §4: a check stays only if its face is still available at the start date's prices.
      return withFields(state, { checked: keepAvailable(fields.checked, action.prices, action.held) })
    case 'marketsChosen':
      return withUi(withFields(state, { markets: action.markets, cities: action.cities, checked: action.checked }), { selectedId: null, fitPending: true })
    case 'cityToggled': {
      const cities = fields.cities.includes(action.city) ? fields.cities.filter((x) => x !== action.city) : [...fields.cities, action.city]
      return withUi(withFields(state, { cities }), { fitPending: true })
    }
    case 'placePicked':
      return placeView(withErrors(withFields(state, { checked: [], place: action.place }), { place: undefined }))
    case 'placeRead':
      return placeView(withFields(state, { place: action.place }))
    case 'placeNotFound':
      return withErrors(state, { place: action.message })
    case 'radiusChanged':
      return placeView(withFields(state, { radius: action.radius }))
    case 'facesFitted':
      return withUi(state, { fitPending: false, view: action.view })
    case 'toggleApplied': {
      // B §4: changing the type or the strategy with faces chosen resets the selections.
      let next = state
      if (fields.checked.length > 0) {
        next = withUi(withFields(next, { checked: [], markets: [], cities: [], place: null, dailyText: '' }), { selectedId: null, wantOnlyChecked: false, view: defaultView('creation') })
      }
      return action.toggle.kind === 'type' ? withFields(next, { typeCampaign: action.toggle.value }) : withUi(withFields(next, { strategy: action.toggle.value }), { selectedId: null })
    }
    case 'creativeChosen':
      return withUi(withErrors(withFields(state, { creative: action.creative, useDefault: false }), { creative: undefined }), { modal: null })
    case 'useDefaultChanged':
      return withFields(state, { useDefault: action.useDefault, ...(action.useDefault ? { creative: null } : {}) })
    case 'cardAdded':
      return withUi(withErrors(state, { card: undefined }), { modal: null })
    case 'promoRedeemed': {
      // The same code redeemed again replaces its amount; another code adds to it.
      const before = fields.promo
      return withFields(state, { promo: { code: action.code, amount: (before?.code === action.code ? 0 : (before?.amount ?? 0)) + action.amount } })
    }
  }
}

/** What follows from a change of the checked faces, whatever changed them. */
function settle(before: FormState, state: FormState): FormState {
  let next = state
  const count = next.fields.checked.length
  if (count === 0 && next.ui.wantOnlyChecked) next = withUi(next, { wantOnlyChecked: false })
  // B §4: in maximum-budget mode, choosing any face raises the daily budget to at least 20 and
  // clearing every face blanks it.
  if (count !== before.fields.checked.length && next.fields.typeCampaign === TypeMaximumBudget) {
    const text = next.fields.dailyText
    const parsed = parseBudget(text)
    const daily = dailyAfterSelection(parsed.value === null ? null : toCents(parsed.value), count)
    const dailyText = daily === null ? '' : parsed.value !== null && toCents(parsed.value) >= daily ? text : String(toDollars(daily))
    if (dailyText !== text) next = withFields(next, { dailyText })
  }
  return next
}

export function formReducer(state: FormState, action: FormAction): FormState {
  return settle(state, step(state, action))
}
