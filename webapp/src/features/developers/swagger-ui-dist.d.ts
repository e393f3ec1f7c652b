// swagger-ui-dist ships no types; the reference page uses only this.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  interface SwaggerUIOptions {
    domNode: HTMLElement
    url?: string
    spec?: object
    deepLinking?: boolean
    docExpansion?: 'list' | 'full' | 'none'
    defaultModelsExpandDepth?: number
    supportedSubmitMethods?: string[]
    tryItOutEnabled?: boolean
    filter?: boolean | string
  }
  const SwaggerUIBundle: (options: SwaggerUIOptions) => unknown
  export default SwaggerUIBundle
}
