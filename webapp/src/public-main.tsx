import './styles'
import { StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import StaticApp from './app/public/StaticApp'

// The entry of the prerendered static public pages (src/app/public/StaticApp.tsx): hydrate the HTML
// the server sent. The page's chunk loads while React hydrates the frame around it.
hydrateRoot(
  document.getElementById('root')!,
  <StrictMode>
    <BrowserRouter>
      <StaticApp />
    </BrowserRouter>
  </StrictMode>,
)
