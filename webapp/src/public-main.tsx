import './styles'
import { StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import StaticApp from './app/public/StaticApp'
import { rememberTypedInputs } from './platform/inputs/typedBeforeHydration'

// The entry of the prerendered static public pages (src/app/public/StaticApp.tsx): hydrate the HTML
// the server sent. The page's chunk loads while React hydrates the frame around it.
const root = document.getElementById('root')!
rememberTypedInputs(root)
hydrateRoot(
  root,
  <StrictMode>
    <BrowserRouter>
      <StaticApp />
    </BrowserRouter>
  </StrictMode>,
)
