import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import {
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
  type CampaignForm as CampaignFormBody,
} from '../../../platform/api-types/campaigns'
import type { Location, PlacePrediction } from '../../../platform/api-types/locations'
import { useAccountCreditQuery, useMyCardQuery } from '../../billing/shared/api'
import CardModal from '../../billing/shared/CardModal'
import PromoRedeemModal from '../../billing/shared/PromoRedeemModal'
import Confirm from '../../../platform/Confirm'
import { useDefaultCreativeQuery } from '../../creatives/shared/api'
import CreativeSelectorModal from '../../creatives/shared/CreativeSelectorModal'
import { compareDays, formatApiDate, formatDisplayDate, parseApiDate, parseInputDate, todayInZone } from '../../../platform/dates'
import { flashShown, FLASH_LONG_MS } from '../../../platform/flash/flash'
import { defaultView, facesView, marketView } from '../../../platform/map/viewRules'
import { useAvailableSpotsQuery, useFacesQuery, useLazyPlaceDetailsQuery, useMapTiles, useMarketsQuery, type FacesQuery } from '../../locations/shared/api'
import { useCampaignDefaultsQuery, useQuoteCampaignMutation } from '../createApi'
import BasicsSection, { NAME_MAX } from './BasicsSection'
import BudgetSection from './BudgetSection'
import { suggestedDailyBudget, summarizeBudget, toCents, toDollars } from './budget'
import CreativeSection from './CreativeSection'
import PreflightSection from './PreflightSection'
import { discardDraft, draftOf, loadDraft, saveDraft, type CampaignDraft } from './draft'
import ExampleSlideshow from './ExampleSlideshow'
import { formReducer, initFormState, weeksOf, type InitialCampaign, type PendingToggle } from './formState'
import ReviewModal, { type ReviewData } from './ReviewModal'
import {
  canCheck,
  citiesForSave,
  dailyBelowSuggested,
  defaultStart,
  earliestStart,
  endDateFor,
  isMonday,
  isSunday,
  parseBudget,
  showOnlyChecked as onlyCheckedRule,
  validateCampaign,
  type PriceData,
} from './rules'
import WhenSection from './WhenSection'
import WhereSection from './WhereSection'

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
  /** The signed-in user whose draft a new campaign keeps; none for an edit. */
  draftOwner?: string
}

/**
 * The one-screen campaign form of B §2, used by /campaigns/new and /campaigns/edit/{id}: name and
 * type, strategy (a radius around a place, or a market and its cities), the map of faces to check,
 * the schedule (Monday start, Sunday end, B §4 duration), the live weekly budget and impressions
 * (B §9), the creative, the card, a promo, and the review and confirm step. Its state is one
 * reducer (formState.ts); each section of the screen is a component over it.
 */
export default function CampaignForm(props: CampaignFormProps) {
  // "Discard draft" starts the form over: a new generation mounts with nothing restored.
  const [generation, setGeneration] = useState(0)
  return <CampaignFormFields key={generation} {...props} onDraftDiscarded={() => setGeneration((g) => g + 1)} />
}

function CampaignFormFields({ mode, initial, disabled = false, onSubmit, onReady, draftOwner, onDraftDiscarded }: CampaignFormProps & { onDraftDiscarded: () => void }) {
  const flash = useDispatch()
  const defaults = useCampaignDefaultsQuery()
  // Today, the Wednesday cut-off and the disabled days follow the business time zone the server
  // names, read against the clock at every render (a form left open past midnight there moves
  // on), not the browser's zone nor UTC.
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

  // A new campaign starts from the user's saved draft, when there is one.
  const [restored] = useState<CampaignDraft | null>(() => (mode === 'create' && draftOwner ? loadDraft(draftOwner) : null))
  const [state, dispatch] = useReducer(formReducer, { mode, initial, restored }, initFormState)
  const { fields, ui } = state
  const { name, typeCampaign, strategy, markets: chosenMarkets, cities, place, radius, startText, frequency, endText, checked, creative, useDefault, dailyText, promo } = fields
  const { modal } = ui
  const top = useRef<HTMLDivElement>(null)
  const reviewing = useRef(false)
  // The faces an edited campaign already holds: its own booking makes them look taken.
  const held = useMemo(() => new Set(initial?.faceIds ?? []), [initial])

  // The start date waits for the server's calendar (B §4 default, Wednesday cut-off). Here and
  // below, state follows fetched data by adjusting it while rendering, not in an effect.
  if (!startText && (defaults.data || defaults.isError)) {
    dispatch({ type: 'defaultStartRead', start: defaults.data && serverToday === todayKey ? (parseApiDate(defaults.data.default_start) ?? defaultStart(today)) : defaultStart(today) })
  }

  const marketList = useMarketsQuery()
  const tiles = useMapTiles()
  const card = useMyCardQuery()
  const credit = useAccountCreditQuery()
  const defaultCreative = useDefaultCreativeQuery()
  const [quote] = useQuoteCampaignMutation()
  const [loadPlace] = useLazyPlaceDetailsQuery()

  // An edited or restored radius campaign knows its place id; its centre is read once.
  useEffect(() => {
    if (!place || place.center) return
    let live = true
    void loadPlace(place.id).then((r) => {
      if (live && r.data) dispatch({ type: 'placeRead', place: { id: r.data.id, name: r.data.name, center: r.data.geometry.location } })
    })
    return () => {
      live = false
    }
  }, [place, loadPlace])

  // B §3 marketsSelected is a list: the faces of every chosen market, in one call.
  const facesQuery = useMemo<FacesQuery | null>(
    () => (strategy === StrategyRadius ? (place ? { place: place.id, radius } : null) : chosenMarkets.length > 0 ? { market: chosenMarkets.join(',') } : null),
    [strategy, place, radius, chosenMarkets],
  )
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
  const [checkedFor, setCheckedFor] = useState<string | null>(restored ? null : startApi)
  if (startApi && prices.size > 0 && checkedFor !== startApi) {
    setCheckedFor(startApi)
    dispatch({ type: 'pricesRead', prices, held })
  }

  // The map fits the chosen markets' faces once they have loaded.
  if (ui.fitPending && !faces.isFetching && faces.isSuccess) {
    dispatch({ type: 'facesFitted', view: marketRows.length === 1 ? marketView(marketRows[0]!, shownFaces) : (facesView(shownFaces) ?? defaultView('creation')) })
  }

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
  const onlyChecked = onlyCheckedRule(ui.wantOnlyChecked, checked.length)

  const weeks = weeksOf(fields)
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

  // Every change of a new campaign's fields is kept as the user's draft.
  useEffect(() => {
    if (!draftOwner || mode !== 'create') return
    saveDraft(draftOwner, draftOf(fields))
  }, [draftOwner, mode, fields])
  const discard = () => {
    if (draftOwner) discardDraft(draftOwner)
    onDraftDiscarded()
  }

  const locked = disabled || ui.submitting

  const canCheckFace = (face: Location) => canCheck(face, priceOf(face.id), typeCampaign)
  const toggleFace = (face: Location) => {
    if (locked) return
    if (checkedSet.has(face.id)) dispatch({ type: 'faceUnchecked', id: face.id })
    else if (canCheckFace(face)) dispatch({ type: 'faceChecked', id: face.id })
  }

  // B §4: changing the type or the strategy with faces chosen asks first and resets the form.
  const askToggle = (toggle: PendingToggle) => {
    if (checked.length === 0) dispatch({ type: 'toggleApplied', toggle })
    else dispatch({ type: 'shown', ui: { pending: toggle } })
  }

  const pickPlace = async (prediction: PlacePrediction) => {
    const result = await loadPlace(prediction.id)
    if (!result.data) {
      dispatch({ type: 'placeNotFound', message: result.error && 'message' in result.error ? String(result.error.message) : 'Place not found.' })
      return
    }
    dispatch({ type: 'placePicked', place: { id: result.data.id, name: result.data.name, center: result.data.geometry.location } })
  }

  const end = parseInputDate(endText)
  const endError = frequency !== FrequencyWeekly || !start ? null : !end ? '* Please use the format mm/dd/yyyy' : !isSunday(end) ? MsgEndNotSunday : compareDays(end, start) <= 0 ? MsgEndBeforeStart : null
  const nameError = !name.trim() ? MsgNameRequired : name.length > NAME_MAX ? MsgNameTooLong : null

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
    dispatch({ type: 'errorsFound', errors: found })
    const invalid = Object.keys(found)
    if (found.card) flash(flashShown(MsgCardRequired, 'danger', FLASH_LONG_MS))
    if (invalid.length > 0) {
      focusField(invalid[0]!)
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
    if (check(cardRequired)) dispatch({ type: 'shown', ui: { modal: 'review' } })
  }

  const confirm = async () => {
    dispatch({ type: 'shown', ui: { submitting: true } })
    let failure: SubmitFailure | void
    try {
      failure = await onSubmit(body())
    } catch {
      failure = { message: '' }
    }
    dispatch({ type: 'shown', ui: { submitting: false, modal: null } })
    if (failure) {
      // B §8: the form is enabled again, the page scrolls to the top, and the message stays 600 s.
      flash(flashShown(failure.message ? `Sorry! ${failure.message}` : 'A unexpected error has occurred.', 'danger', FLASH_LONG_MS))
      if (failure.errors) dispatch({ type: 'errorsAdded', errors: failure.errors })
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
  const closeModal = () => dispatch({ type: 'shown', ui: { modal: null } })

  return (
    <div ref={top} className="space-y-6">
      {ui.draftNote && restored && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900">
          <p>
            <strong>Draft restored.</strong> We kept what you entered on {formatDisplayDate(new Date(restored.savedAt))}.
          </p>
          <div className="flex gap-2">
            <button type="button" className="btn-secondary" onClick={discard}>
              Discard draft
            </button>
            <button type="button" className="text-sm font-medium text-brand-800 underline" onClick={() => dispatch({ type: 'shown', ui: { draftNote: false } })}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <form noValidate onSubmit={(e) => void onReview(e)} aria-label={mode === 'create' ? 'New campaign' : 'Edit campaign'} className="space-y-6">
        <fieldset disabled={locked} className="space-y-6">
          <BasicsSection state={state} dispatch={dispatch} onToggle={askToggle} suggestedDaily={suggestedDaily} />
          <WhereSection
            state={state}
            dispatch={dispatch}
            locked={locked}
            onToggle={askToggle}
            markets={marketList.data}
            marketsLoading={marketList.isLoading}
            marketRows={marketRows}
            marketCities={marketCities}
            loadedFaces={faces.data ?? []}
            tiles={tiles}
            faces={shownFaces}
            facesChosen={facesQuery !== null}
            loadingFaces={loadingFaces || (spots.isFetching && prices.size === 0 && shownFaces.length > 0)}
            checkedSet={checkedSet}
            onlyChecked={onlyChecked}
            priceOf={priceOf}
            canCheck={canCheckFace}
            onToggleFace={toggleFace}
            onPickPlace={(p) => void pickPlace(p)}
            likely={(f) => maximize && budget.likely && f.likely && checkedSet.has(f.id)}
          />
          <WhenSection state={state} dispatch={dispatch} locked={locked} start={start} earliest={earliest} today={today} startError={startError} endError={endError} maxWeeks={maxWeeks} />
          <BudgetSection budget={budget} weeks={weeks} credit={credit.data ?? 0} promo={promo} onRedeem={() => dispatch({ type: 'shown', ui: { modal: 'promo' } })} />
          <CreativeSection state={state} dispatch={dispatch} mode={mode} keepsCreative={mode === 'edit' && !!initial?.creativeId} defaultCreative={defaultCreative.data} card={card.data} needsCard={needsCard} />
          <PreflightSection creative={creative ?? (useDefault ? defaultCreative.data : null)} faces={checkedFaces} />

          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end" data-tour="review">
            <button type="submit" className="btn-primary px-6 py-3 text-base">
              {mode === 'create' ? 'Review and confirm' : 'Review changes'}
            </button>
          </div>
        </fieldset>
      </form>

      <Confirm
        open={ui.pending !== null}
        title={ui.pending?.kind === 'type' ? 'Change the campaign type?' : 'Change the strategy?'}
        message="Your chosen locations will be cleared and the form will start over."
        confirmText="Yes, start over"
        onConfirm={() => {
          if (ui.pending) dispatch({ type: 'toggleApplied', toggle: ui.pending })
          dispatch({ type: 'shown', ui: { pending: null } })
        }}
        onCancel={() => dispatch({ type: 'shown', ui: { pending: null } })}
      />
      <ExampleSlideshow open={modal === 'example'} onClose={closeModal} />
      <CreativeSelectorModal open={modal === 'creative'} onClose={closeModal} onSelect={(c) => dispatch({ type: 'creativeChosen', creative: c })} />
      <CardModal open={modal === 'card'} inCampaignFlow today={today} onClose={closeModal} onCardAdded={() => dispatch({ type: 'cardAdded' })} />
      <PromoRedeemModal open={modal === 'promo'} onClose={closeModal} onRedeemed={(answer, code) => dispatch({ type: 'promoRedeemed', code, amount: answer.amount })} />
      <ReviewModal data={review} open={modal === 'review'} busy={ui.submitting} onClose={closeModal} onConfirm={() => void confirm()} confirmText={mode === 'create' ? 'Confirm campaign' : 'Save changes'} />
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

