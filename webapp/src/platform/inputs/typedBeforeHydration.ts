import { useEffect, useEffectEvent } from 'react'

// A prerendered page (scripts/prerender.mjs) shows its form before React hydrates it.
// What a person types in that moment is in the DOM but not in React's state, and hydration puts
// the state's value back: an email typed quickly on /login vanished. The entries take a snapshot
// of the typed values right before hydrateRoot, and each input hands its own to its state once.
const typed = new Map<string, string>()

/** Remembers the value of every text-like input and textarea under root (call right before hydrateRoot). */
export function rememberTypedInputs(root: ParentNode): void {
  root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[id], textarea[id]').forEach((el) => {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio' || el.type === 'hidden')) return
    if (el.value !== el.defaultValue) typed.set(el.id, el.value)
  })
}

/**
 * Gives the input with this id what was typed in it before hydration, once, through onChange: the
 * snapshot taken before hydrateRoot, or else what the field holds now. Text typed while React was
 * hydrating is in the field but in neither the snapshot nor the state, and React's value tracker
 * then took it as the field's own value, so typing the same text again changed nothing (the
 * landing page's estimate stayed put).
 */
export function useTypedBeforeHydration(id: string, value: string, onChange: (value: string) => void): void {
  // Only the first render: later values are the person's own edits.
  const restore = useEffectEvent(() => {
    const field = document.getElementById(id)
    const live = field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement ? field.value : undefined
    const before = typed.get(id) ?? live
    typed.delete(id)
    if (before !== undefined && before !== value) onChange(before)
  })
  useEffect(() => restore(), [])
}
