/** The first focusable element of every page: a jump past the header to the page's main content. */
export default function SkipLink() {
  return (
    <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[70] focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow">
      Skip to content
    </a>
  )
}
