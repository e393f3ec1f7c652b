import type { Dispatch } from 'react'
import { TypeMaximumBudget, TypePremium } from '../../../platform/api-types/campaigns'
import TextInput from '../../../platform/inputs/TextInput'
import { formatDollars } from '../../../platform/money'
import { toDollars, type Cents } from './budget'
import { Choice } from './controls'
import type { FormAction, FormState, PendingToggle } from './formState'

export const NAME_MAX = 100

// DESIGN §1.7: the maximum-budget type exists but is hidden unless the build turns it on.
export const maxBudgetEnabled = () => import.meta.env.VITE_MAX_BUDGET_CAMPAIGNS === 'true'

/** The name, the type and, for a maximum-budget campaign, the daily budget. */
export default function BasicsSection({
  state: { fields, ui },
  dispatch,
  onToggle,
  suggestedDaily,
}: {
  state: FormState
  dispatch: Dispatch<FormAction>
  /** Asks before a change of type resets the chosen faces (B §4). */
  onToggle: (toggle: PendingToggle) => void
  suggestedDaily: Cents
}) {
  const count = fields.checked.length
  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="basics-title">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="basics-title" className="text-lg font-semibold text-slate-900">
          Campaign
        </h2>
        <button type="button" className="text-sm font-medium text-brand-700 underline" onClick={() => dispatch({ type: 'shown', ui: { modal: 'example' } })} data-tour="example">
          See an example campaign
        </button>
      </div>
      <div data-tour="name" data-field="name">
        <TextInput id="campaign-name" label="Campaign name" value={fields.name} onChange={(name) => dispatch({ type: 'edited', fields: { name } })} maxLength={NAME_MAX} error={ui.errors.name} placeholder="e.g. Spring sale" />
      </div>
      <fieldset data-tour="type">
        <legend className="text-sm font-medium text-slate-700">Campaign type</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          <Choice name="campaign-type" label="Hand Select Locations (premium, fixed rate)" checked={fields.typeCampaign === TypePremium} onChange={() => onToggle({ kind: 'type', value: TypePremium })} />
          {maxBudgetEnabled() && <Choice name="campaign-type" label="Maximize Budget" checked={fields.typeCampaign === TypeMaximumBudget} onChange={() => onToggle({ kind: 'type', value: TypeMaximumBudget })} />}
        </div>
      </fieldset>
      {fields.typeCampaign === TypeMaximumBudget && (
        <div data-field="budget" className="max-w-xs">
          <TextInput
            id="daily-budget"
            label="Daily budget"
            value={fields.dailyText}
            onChange={(dailyText) => dispatch({ type: 'edited', fields: { dailyText } })}
            error={ui.errors.budget}
            inputMode="numeric"
            hint={count > 0 ? `Suggested daily budget: ${formatDollars(toDollars(suggestedDaily))} for ${count} ${count === 1 ? 'location' : 'locations'}. Your weekly budget is 7 times the daily one.` : 'Choose locations first: the daily budget starts at $20.'}
          />
        </div>
      )}
    </section>
  )
}
