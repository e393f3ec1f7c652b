import { ContentLegacyDoc } from '../../platform/api-types/creatives'

// The content library's input rules (A §3, A §5) as plain functions, so the table tests read them.

export type ContentType = 'document' | 'image' | 'video' | 'youtube'
export const CONTENT_TYPES: ContentType[] = ['image', 'video', 'document', 'youtube']
export const CONTENT_TYPE_LABELS: Record<ContentType, string> = {
  image: 'Image',
  video: 'Video',
  document: 'Document',
  youtube: 'YouTube',
}

export type Scope = 'standard' | 'ambassador' | 'certified'
export const SCOPES: Scope[] = ['standard', 'ambassador', 'certified']
export const SCOPE_LABELS: Record<Scope, string> = { standard: 'Standard', ambassador: 'Ambassador', certified: 'Certified' }

export type ContentStatus = 'active' | 'inactive'

/** A §3: the older type value `doc` reads as `document`; anything unknown reads as a document too. */
export function readContentType(type: string): ContentType {
  const lower = type.trim().toLowerCase()
  if (lower === ContentLegacyDoc) return 'document'
  return (CONTENT_TYPES as string[]).includes(lower) ? (lower as ContentType) : 'document'
}

/** The type a file implies, from its MIME type (a PDF or an Office file is a document). */
export function contentTypeOfFile(mime: string): ContentType {
  if (mime.startsWith('image/')) return 'image'
  if (mime.startsWith('video/')) return 'video'
  return 'document'
}

/** Tags are uppercased and trimmed; an empty tag or one already present is ignored. */
export function addTag(tags: string[], raw: string): string[] {
  const tag = raw.trim().toUpperCase()
  if (!tag || tags.includes(tag)) return tags
  return [...tags, tag]
}

export function removeTag(tags: string[], tag: string): string[] {
  return tags.filter((t) => t !== tag)
}

/**
 * A §5: a YouTube item keeps the id from the v parameter of the pasted link
 * (youtube.com/watch?v=…, with or without other parameters). A link without v gives null.
 */
export function youtubeIdFromLink(link: string): string | null {
  const text = link.trim()
  if (!text) return null
  let url: URL
  try {
    url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`)
  } catch {
    return null
  }
  if (!/(^|\.)youtube\.com$/i.test(url.hostname) && !/(^|\.)youtube-nocookie\.com$/i.test(url.hostname)) return null
  const id = url.searchParams.get('v')?.trim() ?? ''
  return /^[A-Za-z0-9_-]{6,20}$/.test(id) ? id : null
}

/** The privacy-enhanced embed of a YouTube id. */
export function youtubeEmbedUrl(id: string): string {
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}`
}
