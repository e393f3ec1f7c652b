import { useEffect, useRef, useState } from 'react'
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-bundle.js'
import 'swagger-ui-dist/swagger-ui.css'

interface OpenAPIDocument {
  paths: Record<string, unknown>
  [key: string]: unknown
}

/**
 * The public part of the OpenAPI document (the paths under /api/v1) rendered by swagger-ui, served
 * from our own assets (a lazy chunk of its own, so the rest of the app never downloads it, and the
 * page works offline). The whole document, with the web app's session routes, stays at
 * /api/openapi.json: swagger-ui 5 stops rendering part way through a document of ~140 operations.
 * Calls are not sent from the page: the examples are for the reader's own tools.
 */
export default function Reference({ url }: { url: string }) {
  const node = useRef<HTMLDivElement>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    fetch(url, { headers: { Accept: 'application/json' } })
      .then((res) => (res.ok ? (res.json() as Promise<OpenAPIDocument>) : Promise.reject(new Error(String(res.status)))))
      .then((doc) => {
        if (!live || !node.current) return
        const paths = Object.fromEntries(Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/v1/')))
        SwaggerUIBundle({ domNode: node.current, spec: { ...doc, paths }, deepLinking: false, docExpansion: 'list', defaultModelsExpandDepth: 0, supportedSubmitMethods: [] })
      })
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [url])
  if (failed)
    return (
      <p role="alert" className="text-sm text-red-700">
        Sorry! The reference could not be loaded. Try again in a moment.
      </p>
    )
  return <div ref={node} className="api-reference" data-testid="api-reference" />
}
