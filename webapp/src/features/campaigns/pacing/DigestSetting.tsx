import { useDispatch } from 'react-redux'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { useDigestSettingQuery, useSetDigestMutation } from './pacingApi'

/**
 * In /settings (its Emails tab): the company's weekly digest of delivery against
 * plan, off by default.
 */
export default function DigestSetting() {
  const dispatch = useDispatch()
  const setting = useDigestSettingQuery()
  const [save, saving] = useSetDigestMutation()
  const on = setting.data?.on ?? false

  const toggle = async () => {
    try {
      const answer = await save({ on: !on }).unwrap()
      dispatch(flashShown(answer.message ?? '', 'success', 3000))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    }
  }

  return (
    <section aria-labelledby="digest-setting" className="flex items-start justify-between gap-6">
      <div>
        <h2 id="digest-setting" className="font-semibold text-slate-900">
          Weekly digest
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Every Monday, one email for all your company's active campaigns: how each delivered against its plan last week.
          {on && setting.data?.recipient ? ` It goes to ${setting.data.recipient}.` : ''}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby="digest-setting"
        disabled={setting.isLoading || saving.isLoading}
        onClick={() => void toggle()}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors disabled:opacity-60 ${on ? 'bg-brand-700' : 'bg-slate-300'}`}
      >
        <span aria-hidden="true" className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`} />
      </button>
    </section>
  )
}
