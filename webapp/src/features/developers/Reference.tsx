import { useEffect, useRef } from 'react'
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-bundle.js'
import 'swagger-ui-dist/swagger-ui.css'

/**
 * The OpenAPI document rendered by swagger-ui, served from our own assets (a lazy chunk of its
 * own, so the rest of the app never downloads it, and the page works offline). Calls are not sent
 * from the page: examples are for the reader's own tools.
 */
export default function Reference({ url }: { url: string }) {
  const node = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!node.current) return
    SwaggerUIBundle({ domNode: node.current, url, deepLinking: false, docExpansion: 'list', defaultModelsExpandDepth: 0, supportedSubmitMethods: [], filter: true })
  }, [url])
  return <div ref={node} className="api-reference" data-testid="api-reference" />
}
