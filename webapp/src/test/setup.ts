import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

// jsdom has no layout: the router's scroll restoration has nothing to scroll.
window.scrollTo = () => undefined

afterEach(() => {
  cleanup()
  window.sessionStorage.clear()
})
