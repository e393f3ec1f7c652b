import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import {
  FrequencyOneTime,
  FrequencyOngoing,
  FrequencyWeekly,
  MaxDurationWeeks,
  MsgCardRequired,
  MsgNameRequired,
  MsgNameTooLong,
  MsgStartNotMonday,
  MsgStartTooSoon,
  MsgEndNotSunday,
  MsgEndBeforeStart,
  StrategyMarket,
  StrategyRadius,
  TypeMaximumBudget,
  TypePremium,
  type CampaignForm as CampaignFormBody,
} from '../../../platform/api-types/campaigns'
import type { Creative } from '../../../platform/api-types/creatives'
import type { Location, PlacePrediction } from '../../../platform/api-types/locations'
import { useAccountCreditQuery, useMyCardQuery } from '../../billing/shared/api'
import CardModal from '../../billing/shared/CardModal'
import PromoRedeemModal from '../../billing/shared/PromoRedeemModal'
import Confirm from '../../../platform/Confirm'
import { useDefaultCreativeQuery } from '../../creatives/shared/api'
import CreativeSelectorModal from '../../creatives/shared/CreativeSelectorModal'
import { addDays, compareDays, formatApiDate, formatDisplayDate, formatInputDate, parseApiDate, parseInputDate, todayInZone } from '../../../platform/dates'
import { flashShown, FLASH_LONG_MS } from '../../../platform/flash/flash'
import DateInput from '../../../platform/inputs/DateInput'
import TextInput from '../../../platform/inputs/TextInput'
import FaceMap from '../../../platform/map/Map'
import PlaceSearch from '../../locations/shared/PlaceSearch'
import { DEFAULT_RADIUS_MILES, defaultView, facesView, marketView, RADIUS_OPTIONS, radiusView, type LatLng, type MapView } from '../../../platform/map/viewRules'
import { formatCount, formatDollars } from '../../../platform/money'
import Spinner from '../../../platform/Spinner'
import {
  useAvailableSpotsQuery,
  useFacesQuery,
  useLazyPlaceDetailsQuery,
  useMapTiles,
  useMarketsQuery,
  type FacesQuery,
} from '../../locations/shared/api'
import { useCampaignDefaultsQuery, useQuoteCampaignMutation } from '../createApi'
import { dailyAfterSelection, suggestedDailyBudget, summarizeBudget, toCents, toDollars } from './budget'
import { discardDraft, loadDraft, saveDraft, type CampaignDraft } from './draft'
import ExampleSlideshow from './ExampleSlideshow'
import ReviewModal, { type ReviewData } from './ReviewModal'
import {
  canCheck,
  citiesForSave,
  dailyBelowSuggested,
  defaultStart,
  durationForFrequency,
  durationFromEnd,
  earliestStart,
  endDateFor,
  isMonday,
  isSunday,
  keepAvailable,
  parseBudget,
  showOnlyChecked as onlyCheckedRule,
  validateCampaign,
  type FormField,
  type Frequency,
  type PriceData,
} from './rules'

// DESIGN §1.7: the maximum-budget type exists but is hidden unless the build turns it on.
export const maxBudgetEnabled = () => import.meta.env.VITE_MAX_BUDGET_CAMPAIGNS === 'true'
const NAME_MAX = 100
const NOT_MONDAY = [0, 2, 3, 4, 5, 6] as const
const NOT_SUNDAY = [1, 2, 3, 4, 5, 6] as const

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
  /** A renewal's creative, chosen already (issue 17); an edit keeps creativeId instead. */
  creative?: Creative | null
  /** A renewed maximum-budget campaign's daily budget, in dollars (issue 17). */
  dailyBudget?: number
}

export interface SubmitFailure {
  message: string
  errors?: Record<string, string>
}

export interface CampaignFormProps {
  mode: 'create' | 'edit'
  initial?: InitialCampaign
  /** Disables every input (the conflict dialog is open, B §2). */
  disabled?: boolean
  /** Sends the form; resolves with a failure to show, or nothing when the caller moved on. */
  onSubmit: (form: CampaignFormBody) => Promise<SubmitFailure | void>
  /** Lets the caller start the tour once the form is on screen. */
  onReady?: () => void
  /** The signed-in user whose draft a new campaign keeps (issue 12 item 24); none for an edit. */
  draftOwner?: string
}

interface ChosenPlace {
  id: string
  name: string
  center: LatLng | null
}

type PendingToggle = { kind: 'type'; value: number } | { kind: 'strategy'; value: number }

const frequencyOptions: { value: Frequency; label: string; hint: string }[] = [
  { value: FrequencyOneTime, label: 'One week', hint: 'A single Monday-to-Sunday week.' },
  { value: FrequencyWeekly, label: 'Specified end date', hint: 'Every week until the Sunday you choose (up to 52 weeks).' },
  { value: FrequencyOngoing, label: 'Ongoing', hint: 'Week after week until you stop it; each week is booked the Wednesday before.' },
]

/**
 * The one-screen campaign form of B §2 (issue 6), used by /campaigns/new and /campaigns/edit/{id}:
 * name and type, strategy (a radius around a place, or a market and its cities), the map of faces
 * to check, the schedule (Monday start, Sunday end, B §4 duration), the live weekly budget and
 * impressions (B §9), the creative, the card, a promo, and the review and confirm step.
 */
export default function CampaignForm(props: CampaignFormProps) {
  // "Discard draft" starts the form over: a new generation mounts with nothing restored.
  const [generation, setGeneration] = useState(0)
  return <CampaignFormFields key={generation} {...props} onDraftDiscarded={() => setGeneration((g) => g + 1)} />
}

function CampaignFormFields({ mode, initial, disabled = false, onSubmit, onReady, draftOwner, onDraftDiscarded }: CampaignFormProps & { onDraftDiscarded: () => void }) {
  const dispatch = useDispatch()
  const defaults = useCampaignDefaultsQuery()
  // Issue 12 item 7: today, the Wednesday cut-off and the disabled days follow the business time
  // zone the server names, read against the clock at every render (a form left open past
  // midnight there moves on), not the browser's zone nor UTC.
  const zone = defaults.data?.business_timezone
  useMinuteTick()
  const todayKey = zone ? formatApiDate(todayInZone(zone)) : (defaults.data?.today ?? formatApiDate(new Date()))
  const today = useMemo(() => parseApiDate(todayKey) ?? new Date(), [todayKey])
  const serverToday = defaults.data?.today
  const earliest = useMemo(() => {
    // The server's cut-off while its day is ours; the same rule (rules.ts) once the day moved on.
    const server = defaults.data && serverToday === todayKey ? parseApiDate(defaults.data.earliest_start) : null
    return server ?? earliestStart(today)
  }, [defaults.data, serverToday, todayKey, today])
  const maxWeeks = defaults.data?.max_weeks || MaxDurationWeeks

  // Issue 12 item 24: a new campaign starts from the user's saved draft, when there is one.
  const [restored] = useState<CampaignDraft | null>(() => (mode === 'create' && draftOwner ? loadDraft(draftOwner) : null))
  const [draftNote, setDraftNote] = useState(restored !== null)

  const [name, setName] = useState(restored?.name ?? initial?.name ?? '')
  const [typeCampaign, setTypeCampaign] = useState(restored?.typeCampaign ?? initial?.typeCampaign ?? TypePremium)
  const [strategy, setStrategy] = useState(restored?.strategy ?? initial?.strategy ?? StrategyMarket)
  const [chosenMarkets, setChosenMarkets] = useState<string[]>(restored?.markets ?? initial?.markets ?? [])
  const [cities, setCities] = useState<string[]>(restored?.cities ?? initial?.cities ?? [])
  const seedPlace = restored?.place ?? initial?.place
  const [place, setPlace] = useState<ChosenPlace | null>(seedPlace ? { ...seedPlace, center: null } : null)
  const [radius, setRadius] = useState(restored?.radius || initial?.radius || DEFAULT_RADIUS_MILES)
  const [startText, setStartText] = useState(restored?.startText ?? (initial ? formatInputDate(parseApiDate(initial.start) ?? new Date()) : ''))
  const [frequency, setFrequency] = useState<Frequency>(restored?.frequency ?? initial?.frequency ?? FrequencyOneTime)
  const [duration, setDuration] = useState(restored?.duration ?? initial?.duration ?? 1)
  const [endText, setEndText] = useState(restored?.endText ?? (initial ? formatInputDate(parseApiDate(initial.end) ?? new Date()) : ''))
  const [checked, setChecked] = useState<string[]>(restored?.checked ?? initial?.faceIds ?? [])
  const [wantOnlyChecked, setWantOnlyChecked] = useState(false)
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [view, setView] = useState<MapView | null>(null)
  const [fitPending, setFitPending] = useState(false)
  const [creative, setCreative] = useState<Creative | null>(restored?.creative ?? initial?.creative ?? null)
  const [useDefault, setUseDefault] = useState(restored?.useDefault ?? (mode === 'create' && !initial?.creative))
  const [dailyText, setDailyText] = useState(restored?.dailyText ?? (initial?.dailyBudget ? String(initial.dailyBudget) : ''))
  const [errors, setErrors] = useState<Partial<Record<FormField | string, string>>>({})
  const [pending, setPending] = useState<PendingToggle | null>(null)
  const [modal, setModal] = useState<null | 'creative' | 'card' | 'promo' | 'example' | 'review'>(null)
  const [submitting, setSubmitting] = useState(false)
  // B §3 promo_code {value}: the code redeemed in this flow goes with the form; its amount is the
  // promo credit of B §9.
  const [promo, setPromo] = useState<{ code: string; amount: number } | null>(restored?.promo ?? null)
  const top = useRef<HTMLDivElement>(null)
  const reviewing = useRef(false)
  // The faces an edited campaign already holds: its own booking makes them look taken.
  const held = useMemo(() => new Set(initial?.faceIds ?? []), [initial])

  // The start date waits for the server's calendar (B §4 default, Wednesday cut-off).
  useEffect(() => {
    if (startText || (!defaults.data && !defaults.isError)) return
    const start = defaults.data && serverToday === todayKey ? (parseApiDate(defaults.data.default_start) ?? defaultStart(today)) : defaultStart(today)
    setStartText(formatInputDate(start))
    setEndText(formatInputDate(endDateFor(start, 1)))
  }, [defaults.data, defaults.isError, startText, today, serverToday, todayKey])

  const marketList = useMarketsQuery()
  const tiles = useMapTiles()
  const card = useMyCardQuery()
  const credit = useAccountCreditQuery()
  const defaultCreative = useDefaultCreativeQuery()
  const [quote] = useQuoteCampaignMutation()
  const [loadPlace] = useLazyPlaceDetailsQuery()

  // An edited radius campaign knows its place id; its centre is read once.
  useEffect(() => {
    if (!place || place.center) return
    let live = true
    void loadPlace(place.id).then((r) => {
      if (live && r.data) setPlace({ id: r.data.id, name: r.data.name, center: r.data.geometry.location })
    })
    return () => {
      live = false
    }
  }, [place, loadPlace])

  // B §3 marketsSelected is a list (issue 12 item 11): the faces of every chosen market, one call.
  const facesQuery: FacesQuery | null = strategy === StrategyRadius ? (place ? { place: place.id, radius } : null) : chosenMarkets.length > 0 ? { market: chosenMarkets.join(',') } : null
  const faces = useFacesQuery(facesQuery ?? { market: '' }, { skip: facesQuery === null })
  useEffect(() => {
    if (faces.isError) console.error('Location load failure', faces.error)
  }, [faces.isError, faces.error])
  const marketRows = useMemo(() => (marketList.data ?? []).filter((m) => chosenMarkets.includes(m.market)), [marketList.data, chosenMarkets])
  const marketCities = useMemo(() => [...new Set(marketRows.flatMap((m) => m.cities ?? []))], [marketRows])
  const shownFaces = useMemo<Location[]>(() => {
    if (facesQuery === null) return []
    const all = faces.data ?? []
    if (strategy === StrategyRadius) return [...all].sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0))
    if (cities.length === 0) return all
    const wanted = new Set(cities)
    return all.filter((f) => wanted.has(f.city))
  }, [faces.data, strategy, cities, facesQuery])

  const start = parseInputDate(startText)
  // An edit may keep its own start even past the cut-off (the server's KeepStart).
  const keepsStart = mode === 'edit' && start !== null && initial !== undefined && formatApiDate(start) === initial.start
  const startError = !startText ? null : !start ? '* Please use the format mm/dd/yyyy' : !isMonday(start) ? MsgStartNotMonday : !keepsStart && compareDays(start, earliest) < 0 ? MsgStartTooSoon : null
  const startApi = start && !startError ? formatApiDate(start) : null
  const spotMarkets = useMemo(() => [...new Set(shownFaces.map((f) => f.market))].sort(), [shownFaces])
  const spots = useAvailableSpotsQuery(
    { start_at: startApi ?? '', markets: spotMarkets, ...(strategy === StrategyMarket && cities.length > 0 ? { cities: cities.join(',') } : {}) },
    { skip: !startApi || spotMarkets.length === 0 },
  )
  const prices = useMemo(() => {
    const byFace = new Map<string, PriceData>()
    if (!spots.data || spots.isFetching) return byFace
    for (const spot of spots.data) byFace.set(spot.xxx, { loaded: true, price: spot.price, available: spot.available, impressionsEst: spot.ooh })
    return byFace
  }, [spots.data, spots.isFetching])
  const priceOf = useCallback(
    (id: string): PriceData | undefined => {
      const p = prices.get(id)
      return p && held.has(id) ? { ...p, available: true } : p
    },
    [prices, held],
  )

  // B §4: a new start date reloads the prices; a check stays only if its face is still available.
  // A restored draft's checks are filtered on the first prices too: its faces may have sold since.
  const checkedFor = useRef<string | null>(restored ? null : startApi)
  useEffect(() => {
    if (!startApi || prices.size === 0 || checkedFor.current === startApi) return
    checkedFor.current = startApi
    setChecked((current) => keepAvailable(current, prices, held))
  }, [startApi, prices, held])

  useEffect(() => {
    if (!fitPending || faces.isFetching || !faces.isSuccess) return
    setFitPending(false)
    setView(marketRows.length === 1 ? marketView(marketRows[0]!, shownFaces) : (facesView(shownFaces) ?? defaultView('creation')))
  }, [fitPending, faces.isFetching, faces.isSuccess, marketRows, shownFaces])
  useEffect(() => {
    if (place?.center) setView(radiusView(place.center, radius))
  }, [place?.center, radius])
  useEffect(() => {
    const seed = restored ?? initial
    if (seed && seed.strategy === StrategyMarket && seed.markets.length > 0) setFitPending(true)
  }, [initial, restored])

  const readyRef = useRef(false)
  useEffect(() => {
    if (!readyRef.current && startText) {
      readyRef.current = true
      onReady?.()
    }
  }, [startText, onReady])

  const checkedSet = useMemo(() => new Set(checked), [checked])
  const faceById = useMemo(() => new Map(shownFaces.map((f) => [f.id, f])), [shownFaces])
  const checkedFaces = useMemo(() => checked.map((id) => faceById.get(id)).filter((f): f is Location => f !== undefined), [checked, faceById])
  const onlyChecked = onlyCheckedRule(wantOnlyChecked, checked.length)
  useEffect(() => {
    if (wantOnlyChecked && checked.length === 0) setWantOnlyChecked(false)
  }, [wantOnlyChecked, checked.length])

  const weeks = frequency === FrequencyWeekly ? duration : 1
  const maximize = typeCampaign === TypeMaximumBudget
  const dailyParsed = parseBudget(dailyText)
  const dailyCents = maximize && dailyParsed.value !== null ? toCents(dailyParsed.value) : null
  const suggestedDaily = suggestedDailyBudget(checked.length)
  const budget = summarizeBudget({
    prices: checkedFaces.map((f) => toCents(priceOf(f.id)?.price ?? 0)),
    weeklyImpressions: checkedFaces.map((f) => priceOf(f.id)?.impressionsEst ?? 0),
    accountCredit: toCents(credit.data ?? 0),
    // The promo's credit, as far as the company still holds it (the quote's promo_credit).
    promoCredit: Math.min(toCents(promo?.amount ?? 0), toCents(credit.data ?? 0)),
    weeks,
    ...(maximize ? { dailyBudget: dailyCents } : {}),
  })
  // B §5: a card only when the weekly budget is above 0 (in any week: the total). On review the
  // server's quote (card_required) has the last word.
  const needsCard = budget.total > 0

  // B §4: in maximum-budget mode, choosing any face raises the daily budget to at least 20 and
  // clearing every face blanks it.
  const checkedCount = useRef(checked.length)
  useEffect(() => {
    if (checkedCount.current === checked.length) return
    checkedCount.current = checked.length
    if (!maximize) return
    setDailyText((text) => {
      const parsed = parseBudget(text)
      const next = dailyAfterSelection(parsed.value === null ? null : toCents(parsed.value), checked.length)
      if (next === null) return ''
      return parsed.value !== null && toCents(parsed.value) >= next ? text : String(toDollars(next))
    })
  }, [checked.length, maximize])

  // Issue 12 item 24: every change of a new campaign is kept as the user's draft.
  useEffect(() => {
    if (!draftOwner || mode !== 'create') return
    saveDraft(draftOwner, {
      savedAt: new Date().toISOString(),
      name,
      typeCampaign,
      strategy,
      markets: chosenMarkets,
      cities,
      place: place ? { id: place.id, name: place.name } : null,
      radius,
      startText,
      frequency,
      duration,
      endText,
      checked,
      creative,
      useDefault,
      dailyText,
      promo,
    })
  }, [draftOwner, mode, name, typeCampaign, strategy, chosenMarkets, cities, place, radius, startText, frequency, duration, endText, checked, creative, useDefault, dailyText, promo])
  const discard = () => {
    if (draftOwner) discardDraft(draftOwner)
    onDraftDiscarded()
  }

  const locked = disabled || submitting

  const toggleFace = (face: Location) => {
    if (locked) return
    if (checkedSet.has(face.id)) {
      setChecked((c) => c.filter((id) => id !== face.id))
      return
    }
    if (!canCheck(face, priceOf(face.id), typeCampaign)) return
    setChecked((c) => [...c, face.id])
    setErrors((e) => ({ ...e, locations: undefined }))
  }

  const resetSelections = () => {
    setChecked([])
    setChosenMarkets([])
    setCities([])
    setPlace(null)
    setSelectedId(null)
    setWantOnlyChecked(false)
    setDailyText('')
    setView(defaultView('creation'))
  }

  // B §4: changing the type or the strategy with faces chosen asks first and resets the form.
  const askToggle = (toggle: PendingToggle) => {
    if (checked.length === 0) {
      applyToggle(toggle)
      return
    }
    setPending(toggle)
  }
  const applyToggle = (toggle: PendingToggle) => {
    if (checked.length > 0) resetSelections()
    if (toggle.kind === 'type') setTypeCampaign(toggle.value)
    else {
      setStrategy(toggle.value)
      setSelectedId(null)
    }
  }

  const changeStart = (text: string) => {
    setStartText(text)
    const d = parseInputDate(text)
    if (d && isMonday(d)) setEndText(formatInputDate(endDateFor(d, weeks)))
  }
  const changeFrequency = (next: Frequency) => {
    setFrequency(next)
    const nextDuration = durationForFrequency(next, frequency === FrequencyWeekly ? duration : undefined)
    setDuration(nextDuration)
    if (start) setEndText(formatInputDate(endDateFor(start, nextDuration)))
  }
  const changeEnd = (text: string) => {
    setEndText(text)
    const end = parseInputDate(text)
    if (start && end && compareDays(end, start) > 0) setDuration(durationFromEnd(start, end))
  }

  const pickPlace = async (prediction: PlacePrediction) => {
    const result = await loadPlace(prediction.id)
    if (!result.data) {
      setErrors((e) => ({ ...e, place: result.error && 'message' in result.error ? String(result.error.message) : 'Place not found.' }))
      return
    }
    setErrors((e) => ({ ...e, place: undefined }))
    setChecked([])
    setPlace({ id: result.data.id, name: result.data.name, center: result.data.geometry.location })
  }

  const end = parseInputDate(endText)
  const endError =
    frequency !== FrequencyWeekly || !start ? null : !end ? '* Please use the format mm/dd/yyyy' : !isSunday(end) ? MsgEndNotSunday : compareDays(end, start) <= 0 ? MsgEndBeforeStart : null
  const nameError = !name.trim() ? MsgNameRequired : name.length > NAME_MAX ? MsgNameTooLong : null
  const shownEnd = start ? endDateFor(start, weeks) : null

  const scrollTop = () => {
    top.current?.scrollIntoView({ behavior: 'smooth', block: 'start' })
    window.scrollTo({ top: 0, behavior: 'smooth' })
  }

  const focusField = (field: string) => {
    const target = document.querySelector<HTMLElement>(`[data-field="${field}"]`)
    target?.scrollIntoView({ behavior: 'smooth', block: 'center' })
    const input = target?.matches('input,select,button') ? target : target?.querySelector<HTMLElement>('input,select,button')
    input?.focus({ preventScroll: true })
  }

  const check = (cardRequired: boolean): boolean => {
    const found = validateCampaign({
      name,
      nameError,
      checkedCount: checked.length,
      duration: weeks,
      hasCreative: creative !== null || (mode === 'edit' && !!initial?.creativeId),
      useDefaultCreative: useDefault,
      hasDefaultCreative: !!defaultCreative.data,
      // An edit charges nothing new at once: the server does not ask for a card (SkipCard).
      hasCard: mode === 'edit' || !!card.data,
      cardRequired,
      budgetText: maximize ? dailyText : null,
      startError: !startText ? '* Please enter a date' : startError,
      endError,
    })
    setErrors(found)
    const fields = Object.keys(found)
    if (found.card) dispatch(flashShown(MsgCardRequired, 'danger', FLASH_LONG_MS))
    if (fields.length > 0) {
      focusField(fields[0]!)
      return false
    }
    // B §5: a daily budget below the suggested one blocks silently (the hint shows the amount).
    return !(maximize && dailyBelowSuggested(dailyCents, checked.length))
  }

  const body = (): CampaignFormBody => {
    const startDate = start ? formatApiDate(start) : ''
    const endDate = start ? formatApiDate(endDateFor(start, weeks)) : ''
    const chosenCreative = creative?.id ?? (mode === 'edit' && !useDefault ? initial?.creativeId : undefined)
    return {
      name: name.trim(),
      typeCampaign,
      strategySelected: strategy,
      marketsSelected: strategy === StrategyMarket ? chosenMarkets : spotMarkets,
      citiesSelected: strategy === StrategyMarket ? citiesForSave(cities) : undefined,
      place_id: strategy === StrategyRadius ? place?.id : undefined,
      radiusCheckValue: strategy === StrategyRadius ? radius : undefined,
      places_checked: checkedFaces.map((f) => ({ id: f.id, price: priceOf(f.id)?.price ?? 0 })),
      startDate,
      endDate,
      frequencySelected: frequency,
      duration: weeks,
      creative_id: chosenCreative || undefined,
      use_default_creative: !chosenCreative && useDefault ? true : undefined,
      weekly_budget: toDollars(budget.weeklyBudget),
      // B §3 maxBudget: the typed daily budget; the weekly budget above is daily × 7 (B §9).
      maxBudget: maximize ? dailyText : undefined,
      impression_count: budget.weeklyImpressions,
      promo_code: promo ? { value: promo.code } : undefined,
    }
  }

  const onReview = async (event: FormEvent) => {
    event.preventDefault()
    if (locked || reviewing.current) return
    let cardRequired = needsCard
    // Without a card on file, the server's quote says whether one is needed (B §5, card_required):
    // credit may pay everything.
    if (mode === 'create' && !card.data && checked.length > 0 && startApi) {
      reviewing.current = true
      try {
        const answer = await quote(body()).unwrap()
        cardRequired = answer.card_required
      } catch {
        // The quote is advice: without it the client's rule stands and the server decides on create.
      } finally {
        reviewing.current = false
      }
    }
    if (check(cardRequired)) setModal('review')
  }

  const confirm = async () => {
    setSubmitting(true)
    let failure: SubmitFailure | void
    try {
      failure = await onSubmit(body())
    } catch {
      failure = { message: '' }
    }
    setSubmitting(false)
    setModal(null)
    if (failure) {
      // B §8: the form is enabled again, the page scrolls to the top, and the message stays 600 s.
      dispatch(flashShown(failure.message ? `Sorry! ${failure.message}` : 'A unexpected error has occurred.', 'danger', FLASH_LONG_MS))
      if (failure.errors) setErrors((e) => ({ ...e, ...failure.errors }))
      scrollTop()
    }
  }

  const review: ReviewData | null = start
    ? {
        name: name.trim(),
        area: strategy === StrategyMarket ? [chosenMarkets.join(', '), cities.length ? `(${cities.join(', ')})` : ''].filter(Boolean).join(' ') : `${radius} miles around ${place?.name ?? ''}`,
        faces: checkedFaces.map((f) => ({ id: f.id, name: `${f.location_name}, ${f.face}`, price: priceOf(f.id)?.price ?? 0 })),
        start,
        end: endDateFor(start, weeks),
        frequency,
        duration: weeks,
        budget,
        creativeName: creative?.name ?? (useDefault && defaultCreative.data ? `${defaultCreative.data.name} (company default)` : mode === 'edit' ? 'The campaign’s current creative' : ''),
        card: card.data?.masked ?? (needsCard ? '' : 'None needed: your credit covers it'),
        promoCode: promo?.code,
        dailyBudget: maximize ? dailyCents : null,
      }
    : null

  const loadingFaces = faces.isFetching && !faces.data
  const shownCreative = creative ?? (useDefault ? defaultCreative.data : null)

  return (
    <div ref={top} className="space-y-6">
      {draftNote && restored && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900">
          <p>
            <strong>Draft restored.</strong> We kept what you entered on {formatDisplayDate(new Date(restored.savedAt))}.
          </p>
          <div className="flex gap-2">
            <button type="button" className="btn-secondary" onClick={discard}>
              Discard draft
            </button>
            <button type="button" className="text-sm font-medium text-brand-800 underline" onClick={() => setDraftNote(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <form noValidate onSubmit={(e) => void onReview(e)} aria-label={mode === 'create' ? 'New campaign' : 'Edit campaign'} className="space-y-6">
        <fieldset disabled={locked} className="space-y-6">
          <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="basics-title">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="basics-title" className="text-lg font-semibold text-slate-900">
                Campaign
              </h2>
              <button type="button" className="text-sm font-medium text-brand-700 underline" onClick={() => setModal('example')} data-tour="example">
                See an example campaign
              </button>
            </div>
            <div data-tour="name" data-field="name">
              <TextInput id="campaign-name" label="Campaign name" value={name} onChange={setName} maxLength={NAME_MAX} error={errors.name} placeholder="e.g. Spring sale" />
            </div>
            <fieldset data-tour="type">
              <legend className="text-sm font-medium text-slate-700">Campaign type</legend>
              <div className="mt-2 flex flex-wrap gap-2">
                <Choice name="campaign-type" label="Hand Select Locations (premium, fixed rate)" checked={typeCampaign === TypePremium} onChange={() => askToggle({ kind: 'type', value: TypePremium })} />
                {maxBudgetEnabled() && <Choice name="campaign-type" label="Maximize Budget" checked={typeCampaign === TypeMaximumBudget} onChange={() => askToggle({ kind: 'type', value: TypeMaximumBudget })} />}
              </div>
            </fieldset>
            {maximize && (
              <div data-field="budget" className="max-w-xs">
                <TextInput
                  id="daily-budget"
                  label="Daily budget"
                  value={dailyText}
                  onChange={setDailyText}
                  error={errors.budget}
                  inputMode="numeric"
                  hint={checked.length > 0 ? `Suggested daily budget: ${formatDollars(toDollars(suggestedDaily))} for ${checked.length} ${checked.length === 1 ? 'location' : 'locations'}. Your weekly budget is 7 times the daily one.` : 'Choose locations first: the daily budget starts at $20.'}
                />
              </div>
            )}
          </section>

          <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="where-title">
            <h2 id="where-title" className="text-lg font-semibold text-slate-900">
              Where
            </h2>
            <fieldset data-tour="strategy">
              <legend className="text-sm font-medium text-slate-700">Strategy</legend>
              <div className="mt-2 flex flex-wrap gap-2">
                <Choice name="strategy" label="DMA market" checked={strategy === StrategyMarket} onChange={() => askToggle({ kind: 'strategy', value: StrategyMarket })} />
                <Choice name="strategy" label="Radius around an address" checked={strategy === StrategyRadius} onChange={() => askToggle({ kind: 'strategy', value: StrategyRadius })} />
              </div>
            </fieldset>
            {strategy === StrategyMarket ? (
              <div className="grid gap-4 md:grid-cols-2">
                <fieldset data-tour="market" className="min-w-0">
                  <legend className="text-sm font-medium text-slate-700">Markets {chosenMarkets.length > 0 ? `(${chosenMarkets.length})` : ''}</legend>
                  {/* While the form is locked its checkboxes cannot take the focus, so the list does not scroll (axe: a scrolling region needs something focusable). */}
                  <div className={`mt-1.5 flex max-h-32 flex-wrap gap-1.5 ${locked ? 'overflow-hidden' : 'overflow-auto'}`}>
                    {marketList.data?.map((m) => (
                      <Chip
                        key={m.id}
                        label={m.market}
                        checked={chosenMarkets.includes(m.market)}
                        onChange={() => {
                          const next = chosenMarkets.includes(m.market) ? chosenMarkets.filter((x) => x !== m.market) : [...chosenMarkets, m.market]
                          const kept = new Set(next)
                          // A face or a city of a market taken away goes with it.
                          setChosenMarkets(next)
                          setCities((c) => c.filter((city) => (marketList.data ?? []).some((row) => kept.has(row.market) && row.cities?.includes(city))))
                          setChecked((c) => c.filter((id) => kept.has((faces.data ?? []).find((f) => f.id === id)?.market ?? '')))
                          setSelectedId(null)
                          setFitPending(true)
                        }}
                      />
                    ))}
                    {marketList.isLoading && <Spinner label="Loading markets" />}
                  </div>
                </fieldset>
                <fieldset data-tour="cities" className="min-w-0">
                  <legend className="text-sm font-medium text-slate-700">Cities {cities.length > 0 ? `(${cities.length})` : '(all)'}</legend>
                  {/* While the form is locked its checkboxes cannot take the focus, so the list does not scroll (axe: a scrolling region needs something focusable). */}
                  <div className={`mt-1.5 flex max-h-32 flex-wrap gap-1.5 ${locked ? 'overflow-hidden' : 'overflow-auto'}`}>
                    {marketCities.map((city) => (
                      <Chip
                        key={city}
                        label={city}
                        checked={cities.includes(city)}
                        onChange={() => {
                          setCities((c) => (c.includes(city) ? c.filter((x) => x !== city) : [...c, city]))
                          setFitPending(true)
                        }}
                      />
                    ))}
                    {marketRows.length === 0 && <p className="text-sm text-slate-500">Choose a market to filter by city.</p>}
                  </div>
                </fieldset>
              </div>
            ) : (
              <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_12rem]" data-tour="market">
                <PlaceSearch id="campaign-place" label="Address or place" initial={place?.name} onPick={(p) => void pickPlace(p)} error={errors.place} disabled={locked} />
                <div className="space-y-1.5" data-tour="cities">
                  <label htmlFor="campaign-radius" className="block text-sm font-medium text-slate-700">
                    Radius
                  </label>
                  <select id="campaign-radius" className="field-input" value={radius} onChange={(e) => setRadius(Number(e.target.value))}>
                    {RADIUS_OPTIONS.map((r) => (
                      <option key={r} value={r}>
                        {r} miles
                      </option>
                    ))}
                  </select>
                </div>
              </div>
            )}

            <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
              <div data-tour="map" className="min-w-0">
                {tiles ? (
                  <FaceMap<Location>
                    faces={shownFaces}
                    mode="creation"
                    label="Map of the faces you can choose"
                    tileUrl={tiles.tile_url}
                    attribution={tiles.attribution}
                    view={view}
                    circle={strategy === StrategyRadius && place?.center ? { center: place.center, miles: radius } : null}
                    selectedId={selectedId}
                    onSelect={(id) => setSelectedId(id === null ? null : String(id))}
                    checked={checkedSet}
                    showOnlyChecked={onlyChecked}
                    isDisabled={(f) => !checkedSet.has(f.id) && !canCheck(f, priceOf(f.id), typeCampaign)}
                    renderInfo={(face) => <FaceCard face={face} price={priceOf(face.id)} checked={checkedSet.has(face.id)} can={canCheck(face, priceOf(face.id), typeCampaign)} onToggle={() => toggleFace(face)} />}
                    className="h-80 sm:h-96"
                  />
                ) : (
                  <div className="flex h-80 items-center justify-center rounded-xl bg-slate-100">
                    <Spinner label="Loading the map" />
                  </div>
                )}
              </div>
              <div className="min-w-0 space-y-2" data-field="locations">
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-sm font-semibold text-slate-900">
                    Locations <span className="font-normal text-slate-500">({checked.length} chosen)</span>
                  </h3>
                  <label className="flex items-center gap-1.5 text-xs text-slate-700">
                    <input type="checkbox" checked={onlyChecked} disabled={checked.length === 0} onChange={(e) => setWantOnlyChecked(e.target.checked)} />
                    Show only checked
                  </label>
                </div>
                {errors.locations && (
                  <p role="alert" className="text-sm text-red-600">
                    {errors.locations}
                  </p>
                )}
                <FaceList
                  faces={onlyChecked ? shownFaces.filter((f) => checkedSet.has(f.id)) : shownFaces}
                  loading={loadingFaces || (spots.isFetching && prices.size === 0 && shownFaces.length > 0)}
                  empty={facesQuery === null ? (strategy === StrategyMarket ? 'Choose a market to see its faces.' : 'Search a place to see the faces around it.') : 'No faces here — try other cities or a larger radius.'}
                  checked={checkedSet}
                  priceOf={priceOf}
                  canCheck={(f) => canCheck(f, priceOf(f.id), typeCampaign)}
                  onToggle={toggleFace}
                  likely={(f) => maximize && budget.likely && f.likely && checkedSet.has(f.id)}
                  onShow={(f) => {
                    setSelectedId(f.id)
                    setView(facesView([f]))
                  }}
                  locked={locked}
                />
              </div>
            </div>
          </section>

          <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="when-title" data-tour="scheduling">
            <h2 id="when-title" className="text-lg font-semibold text-slate-900">
              When
            </h2>
            <div className="grid gap-4 md:grid-cols-3">
              <div data-tour="start-date" data-field="startDate">
                <DateInput id="campaign-start" label="Start date (a Monday)" value={startText} onChange={changeStart} min={earliest} disabledWeekdays={NOT_MONDAY} today={today} error={errors.startDate ?? startError} disabled={locked} />
              </div>
              <fieldset data-tour="frequency">
                <legend className="text-sm font-medium text-slate-700">Frequency</legend>
                <div className="mt-1.5 space-y-1.5">
                  {frequencyOptions.map((o) => (
                    <label key={o.value} className="flex items-start gap-2 text-sm text-slate-700">
                      <input type="radio" name="frequency" className="mt-1" checked={frequency === o.value} onChange={() => changeFrequency(o.value)} />
                      <span>
                        <span className="font-medium">{o.label}</span>
                        <span className="block text-xs text-slate-500">{o.hint}</span>
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
              <div data-tour="end-date" data-field="endDate">
                {frequency === FrequencyWeekly ? (
                  <DateInput id="campaign-end" label="End date (a Sunday)" value={endText} onChange={changeEnd} min={start ? addDays(start, 6) : undefined} disabledWeekdays={NOT_SUNDAY} today={today} error={errors.endDate ?? endError} disabled={locked} />
                ) : (
                  <div className="space-y-1.5">
                    <p className="text-sm font-medium text-slate-700">End date</p>
                    <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{shownEnd ? `${formatDisplayDate(shownEnd)}${frequency === FrequencyOngoing ? ', then week after week' : ''}` : '—'}</p>
                  </div>
                )}
              </div>
            </div>
            <p className="text-sm text-slate-700" data-field="duration" data-testid="duration">
              Duration: <strong>{weeks} {weeks === 1 ? 'week' : 'weeks'}</strong>
              {weeks <= maxWeeks && <span className="text-slate-500"> (at most {maxWeeks})</span>}
            </p>
            {errors.duration && (
              <p role="alert" className="text-sm text-red-600">
                {errors.duration}
              </p>
            )}
          </section>

          <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="budget-title">
            <h2 id="budget-title" className="text-lg font-semibold text-slate-900">
              Budget
            </h2>
            <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
              <div data-tour="budgets" className="rounded-xl bg-brand-50 p-4">
                <dt className="text-xs font-medium uppercase tracking-wide text-brand-800">Weekly budget</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="weekly-budget">
                  {formatDollars(toDollars(budget.weeklyBudget))}
                </dd>
                {budget.creditPortion > 0 && <dd className="text-xs text-slate-600">after {formatDollars(toDollars(budget.creditPortion))} of account credit a week</dd>}
              </div>
              <div className="rounded-xl bg-slate-50 p-4">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Spendable budget</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="spendable-budget">
                  {formatDollars(toDollars(budget.spendable))}
                </dd>
                <dd className="text-xs text-slate-600">{budget.promoCredit > 0 ? `weekly budget + ${formatDollars(toDollars(budget.promoCredit))} of promo credit` : 'weekly budget + promo credit'}</dd>
              </div>
              <div className="rounded-xl bg-slate-50 p-4">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Total for {weeks} {weeks === 1 ? 'week' : 'weeks'}</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="total-budget">
                  {formatDollars(toDollars(budget.total))}
                </dd>
              </div>
              <div data-tour="impressions" className="rounded-xl bg-slate-50 p-4">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Estimated impressions</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="impressions">
                  {formatCount(budget.weeklyImpressions)}
                </dd>
                <dd className="text-xs text-slate-600">a week · {formatCount(budget.totalImpressions)} in all</dd>
              </div>
              <div className="rounded-xl bg-slate-50 p-4">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Account credit</dt>
                <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="account-credit">
                  {formatDollars(credit.data ?? 0)}
                </dd>
                <dd>
                  <button type="button" className="text-xs font-medium text-brand-700 underline" onClick={() => setModal('promo')}>
                    Redeem a promo code
                  </button>
                </dd>
                {promo && <dd className="text-xs text-emerald-700">Promo {promo.code} of {formatDollars(promo.amount)} added to your credit</dd>}
              </div>
            </dl>
          </section>

          <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="creative-title">
            <h2 id="creative-title" className="text-lg font-semibold text-slate-900">
              Creative and payment
            </h2>
            <div className="grid gap-6 md:grid-cols-2">
              <div className="space-y-3" data-tour="creative" data-field="creative">
                <h3 className="text-sm font-semibold text-slate-900">Creative</h3>
                {defaultCreative.data && (
                  <label className="flex items-center gap-2 text-sm text-slate-700">
                    <input type="checkbox" checked={useDefault && !creative} onChange={(e) => {
                      setUseDefault(e.target.checked)
                      if (e.target.checked) setCreative(null)
                    }} />
                    Use the company default ({defaultCreative.data.name})
                  </label>
                )}
                <button type="button" className="btn-secondary" onClick={() => setModal('creative')}>
                  {creative ? 'Change creative' : 'Add creative'}
                </button>
                {errors.creative && (
                  <p role="alert" className="text-sm text-red-600">
                    {errors.creative}
                  </p>
                )}
              </div>
              <div data-tour="ad-preview" className="space-y-2">
                <h3 className="text-sm font-semibold text-slate-900">Ad preview</h3>
                {shownCreative ? (
                  <figure className="space-y-1">
                    <img src={shownCreative.awsUrl} alt={shownCreative.alt || shownCreative.name} className="aspect-[7/2] w-full rounded-lg bg-slate-900 object-contain" />
                    <figcaption className="text-xs text-slate-600" data-testid="creative-name">
                      {shownCreative.name}
                    </figcaption>
                  </figure>
                ) : mode === 'edit' && initial?.creativeId ? (
                  <p className="text-sm text-slate-600">The campaign keeps its current creative unless you choose another.</p>
                ) : (
                  <div className="flex aspect-[7/2] items-center justify-center rounded-lg border border-dashed border-slate-300 text-sm text-slate-500">No creative yet</div>
                )}
              </div>
            </div>
            <div className="space-y-2" data-field="card">
              <h3 className="text-sm font-semibold text-slate-900">Card</h3>
              {card.data ? (
                <p className="text-sm text-slate-700" data-testid="card-on-file">
                  {card.data.masked}
                </p>
              ) : (
                <p className="text-sm text-slate-600">{needsCard || mode === 'edit' ? 'No card on file yet.' : 'No card on file yet. Your credit pays for this campaign, so none is needed.'}</p>
              )}
              <button type="button" className="btn-secondary" onClick={() => setModal('card')}>
                {card.data ? 'Replace card' : 'Add card'}
              </button>
              {errors.card && (
                <p role="alert" className="text-sm text-red-600">
                  {errors.card}
                </p>
              )}
            </div>
          </section>

          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end" data-tour="review">
            <button type="submit" className="btn-primary px-6 py-3 text-base">
              {mode === 'create' ? 'Review and confirm' : 'Review changes'}
            </button>
          </div>
        </fieldset>
      </form>

      <Confirm
        open={pending !== null}
        title={pending?.kind === 'type' ? 'Change the campaign type?' : 'Change the strategy?'}
        message="Your chosen locations will be cleared and the form will start over."
        confirmText="Yes, start over"
        onConfirm={() => {
          if (pending) applyToggle(pending)
          setPending(null)
        }}
        onCancel={() => setPending(null)}
      />
      <ExampleSlideshow open={modal === 'example'} onClose={() => setModal(null)} />
      <CreativeSelectorModal
        open={modal === 'creative'}
        onClose={() => setModal(null)}
        onSelect={(c) => {
          setCreative(c)
          setUseDefault(false)
          setErrors((e) => ({ ...e, creative: undefined }))
          setModal(null)
        }}
      />
      <CardModal
        open={modal === 'card'}
        inCampaignFlow
        today={today}
        onClose={() => setModal(null)}
        onCardAdded={() => {
          setErrors((e) => ({ ...e, card: undefined }))
          setModal(null)
        }}
      />
      <PromoRedeemModal
        open={modal === 'promo'}
        onClose={() => setModal(null)}
        onRedeemed={(answer, code) => setPromo((p) => ({ code, amount: (p?.code === code ? 0 : (p?.amount ?? 0)) + answer.amount }))}
      />
      <ReviewModal data={review} open={modal === 'review'} busy={submitting} onClose={() => setModal(null)} onConfirm={() => void confirm()} confirmText={mode === 'create' ? 'Confirm campaign' : 'Save changes'} />
    </div>
  )
}

/** Renders again every minute and when the window comes back, so a date rule read at render follows the clock. */
function useMinuteTick() {
  const [, setTick] = useState(0)
  useEffect(() => {
    const tick = () => setTick((t) => t + 1)
    const timer = window.setInterval(tick, 60_000)
    window.addEventListener('focus', tick)
    return () => {
      window.clearInterval(timer)
      window.removeEventListener('focus', tick)
    }
  }, [])
}

/** A round toggle of the market and city filters: a checkbox over a pill. */
function Chip({ label, checked, onChange }: { label: string; checked: boolean; onChange: () => void }) {
  return (
    <label className={`relative cursor-pointer rounded-full border px-3 py-1 text-xs has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${checked ? 'border-brand-600 bg-brand-50 text-brand-800' : 'border-slate-300 text-slate-700'}`}>
      {/* The checkbox covers the whole chip (transparent): a click or a tap anywhere on it lands on it. */}
      <input type="checkbox" className="absolute inset-0 m-0 h-full w-full cursor-pointer appearance-none rounded-full opacity-0" checked={checked} onChange={onChange} />
      {label}
    </label>
  )
}

function Choice({ name, label, checked, onChange }: { name: string; label: string; checked: boolean; onChange: () => void }) {
  return (
    <label className={`cursor-pointer rounded-lg border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${checked ? 'border-brand-600 bg-brand-50 font-medium text-brand-800' : 'border-slate-300 text-slate-700'}`}>
      <input type="radio" name={name} className="sr-only" checked={checked} onChange={onChange} />
      {label}
    </label>
  )
}

function priceText(price: PriceData | undefined): string {
  if (!price) return 'Loading price…'
  if (!price.available) return 'Sold out this week'
  return `${formatDollars(price.price)}/week · ${formatCount(price.impressionsEst)} impressions`
}

function FaceCard({ face, price, checked, can, onToggle }: { face: Location; price: PriceData | undefined; checked: boolean; can: boolean; onToggle: () => void }) {
  return (
    <div className="space-y-2 text-sm">
      <p className="font-semibold text-slate-900">{face.location_name}</p>
      <p className="text-slate-600">
        {face.face} · {face.city}, {face.market}
      </p>
      <p className="text-slate-700">{priceText(price)}</p>
      <button type="button" className={checked ? 'btn-secondary' : 'btn-primary'} disabled={!checked && !can} onClick={onToggle}>
        {checked ? 'Remove from campaign' : 'Add to campaign'}
      </button>
    </div>
  )
}

function FaceList({
  faces,
  loading,
  empty,
  checked,
  priceOf,
  canCheck: allowed,
  onToggle,
  onShow,
  locked,
  likely,
}: {
  locked: boolean
  /** B §3 "likely": shown on a maximum-budget campaign's faces; a budget below the minimum clears it (B §4). */
  likely: (f: Location) => boolean
  faces: readonly Location[]
  loading: boolean
  empty: string
  checked: ReadonlySet<string>
  priceOf: (id: string) => PriceData | undefined
  canCheck: (f: Location) => boolean
  onToggle: (f: Location) => void
  onShow: (f: Location) => void
}) {
  if (loading)
    return (
      <div className="flex h-24 items-center justify-center">
        <Spinner label="Loading faces and prices" />
      </div>
    )
  if (faces.length === 0) return <p className="text-sm text-slate-500">{empty}</p>
  return (
    // A scrolling list must be reachable by keyboard; while the form is disabled (the conflict
    // dialog is open over it) the list does not scroll.
    <ul aria-label="Faces" tabIndex={locked ? undefined : 0} className={`max-h-80 divide-y divide-slate-100 rounded-lg border border-slate-200 lg:max-h-[21rem] ${locked ? 'overflow-hidden' : 'overflow-auto'}`}>
      {faces.map((f) => {
        const isChecked = checked.has(f.id)
        const can = isChecked || allowed(f)
        return (
          <li key={f.id} className="flex items-start gap-2 px-3 py-2">
            <input
              id={`face-${f.id}`}
              type="checkbox"
              className="mt-1"
              checked={isChecked}
              disabled={!can}
              onChange={() => onToggle(f)}
              aria-describedby={`face-${f.id}-price`}
            />
            <div className="min-w-0 flex-1">
              <label htmlFor={`face-${f.id}`} className="block truncate text-sm font-medium text-slate-800">
                {f.location_name}, {f.face}
              </label>
              <p id={`face-${f.id}-price`} className="text-xs text-slate-600">
                {f.city} · {priceText(priceOf(f.id))}
                {likely(f) && <span className="ml-1 rounded bg-emerald-50 px-1.5 py-0.5 font-medium text-emerald-800">Likely to run</span>}
              </p>
            </div>
            <button type="button" className="text-xs text-brand-700 underline" onClick={() => onShow(f)} aria-label={`Show ${f.location_name}, ${f.face} on the map`}>
              Map
            </button>
          </li>
        )
      })}
    </ul>
  )
}
