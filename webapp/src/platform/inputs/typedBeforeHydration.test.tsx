import { act, render } from '@testing-library/react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import EmailInput from './EmailInput'
import { rememberTypedInputs } from './typedBeforeHydration'

// A prerendered /login keeps the email typed before React took over the page.
describe('what is typed before hydration', () => {
  it('is handed to the input of the same id once, and an untouched input is left alone', () => {
    const prerendered = document.createElement('div')
    prerendered.innerHTML = '<input id="login-email" value=""><input id="untouched" value="server"><input id="box" type="checkbox">'
    prerendered.querySelector<HTMLInputElement>('#login-email')!.value = 'typed@example.com'
    rememberTypedInputs(prerendered)

    const onEmail = vi.fn()
    const { rerender } = render(<EmailInput id="login-email" label="Email" value="" onChange={onEmail} />)
    expect(onEmail).toHaveBeenCalledExactlyOnceWith('typed@example.com')
    rerender(<EmailInput id="login-email" label="Email" value="typed@example.com" onChange={onEmail} />)
    expect(onEmail).toHaveBeenCalledTimes(1)

    const onOther = vi.fn()
    render(<EmailInput id="untouched" label="Other" value="server" onChange={onOther} />)
    expect(onOther).not.toHaveBeenCalled()
  })

  it('is handed over when typed while React hydrates, after the snapshot', async () => {
    const onLate = vi.fn()
    const page = <EmailInput id="late-field" label="Email" value="" onChange={onLate} />
    const container = document.createElement('div')
    container.innerHTML = renderToString(page)
    document.body.append(container)
    rememberTypedInputs(container) // nothing typed yet
    container.querySelector<HTMLInputElement>('#late-field')!.value = 'late@example.com' // typed during hydration
    await act(async () => {
      hydrateRoot(container, page)
    })
    expect(onLate).toHaveBeenCalledExactlyOnceWith('late@example.com')
    container.remove()
  })
})
