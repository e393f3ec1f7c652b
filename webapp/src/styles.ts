// The styles of both entries (main.tsx, public-main.tsx): the Kanit weights in use, then Tailwind.
import '@fontsource/kanit/300.css'
import '@fontsource/kanit/400.css'
import '@fontsource/kanit/500.css'
import '@fontsource/kanit/600.css'
import './index.css'
