import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// Screens load lazily: on a busy CI machine the first import of a section can take longer than
// testing-library's default 1 s wait for findBy*, which then fails a correct test.
configure({ asyncUtilTimeout: 5000 })

// jsdom has no layout: the router's scroll restoration has nothing to scroll.
window.scrollTo = () => undefined

afterEach(() => {
  cleanup()
  window.sessionStorage.clear()
  window.localStorage.clear()
})
