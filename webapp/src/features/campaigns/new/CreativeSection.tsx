import type { Dispatch } from 'react'
import type { Card } from '../../../platform/api-types/billing'
import type { Creative } from '../../../platform/api-types/creatives'
import type { FormAction, FormState } from './formState'

/** The creative (or the company default) with its preview, and the card on file. */
export default function CreativeSection({
  state: { fields, ui },
  dispatch,
  mode,
  keepsCreative,
  defaultCreative,
  card,
  needsCard,
}: {
  state: FormState
  dispatch: Dispatch<FormAction>
  mode: 'create' | 'edit'
  /** An edited campaign that keeps its current creative unless another is chosen. */
  keepsCreative: boolean
  defaultCreative: Creative | null | undefined
  card: Card | null | undefined
  needsCard: boolean
}) {
  const { creative, useDefault } = fields
  const shownCreative = creative ?? (useDefault ? defaultCreative : null)
  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="creative-title">
      <h2 id="creative-title" className="text-lg font-semibold text-slate-900">
        Creative and payment
      </h2>
      <div className="grid gap-6 md:grid-cols-2">
        <div className="space-y-3" data-tour="creative" data-field="creative">
          <h3 className="text-sm font-semibold text-slate-900">Creative</h3>
          {defaultCreative && (
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={useDefault && !creative} onChange={(e) => dispatch({ type: 'useDefaultChanged', useDefault: e.target.checked })} />
              Use the company default ({defaultCreative.name})
            </label>
          )}
          <button type="button" className="btn-secondary" onClick={() => dispatch({ type: 'shown', ui: { modal: 'creative' } })}>
            {creative ? 'Change creative' : 'Add creative'}
          </button>
          {ui.errors.creative && (
            <p role="alert" className="text-sm text-red-600">
              {ui.errors.creative}
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
          ) : keepsCreative ? (
            <p className="text-sm text-slate-600">The campaign keeps its current creative unless you choose another.</p>
          ) : (
            <div className="flex aspect-[7/2] items-center justify-center rounded-lg border border-dashed border-slate-300 text-sm text-slate-500">No creative yet</div>
          )}
        </div>
      </div>
      <div className="space-y-2" data-field="card">
        <h3 className="text-sm font-semibold text-slate-900">Card</h3>
        {card ? (
          <p className="text-sm text-slate-700" data-testid="card-on-file">
            {card.masked}
          </p>
        ) : (
          <p className="text-sm text-slate-600">{needsCard || mode === 'edit' ? 'No card on file yet.' : 'No card on file yet. Your credit pays for this campaign, so none is needed.'}</p>
        )}
        <button type="button" className="btn-secondary" onClick={() => dispatch({ type: 'shown', ui: { modal: 'card' } })}>
          {card ? 'Replace card' : 'Add card'}
        </button>
        {ui.errors.card && (
          <p role="alert" className="text-sm text-red-600">
            {ui.errors.card}
          </p>
        )}
      </div>
    </section>
  )
}
