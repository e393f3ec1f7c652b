import type { Week } from '../../../platform/api-types/campaigns'
import type { ImportReport, Mappings } from '../../../platform/api-types/screens'

/** A face or creative a reference may be mapped to. */
export interface Option {
  value: string
  label: string
}

/** The faces a campaign's weeks book, each once, by name. */
export function faceOptions(weeks: Week[]): Option[] {
  const seen = new Map<string, string>()
  for (const w of weeks) {
    if (!seen.has(w.product_id)) {
      const p = w.product
      seen.set(w.product_id, p ? [p.location_name, p.face].filter(Boolean).join(' · ') || w.product_id : w.product_id)
    }
  }
  return [...seen].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label))
}

/** A creative of the campaign's company, as the picker names it. */
export interface CompanyCreative {
  id: string
  name: string
  is_default: boolean
}

/**
 * The creatives a campaign may show, each once: its own, its weeks' own ones, then its company's
 * (the default first: a campaign without a creative plays its company's default).
 */
export function creativeOptions(weeks: Week[], campaignCreative = '', company: CompanyCreative[] = []): Option[] {
  const seen = new Set<string>()
  const out: Option[] = []
  const add = (value: string, label: string) => {
    if (value && !seen.has(value)) {
      seen.add(value)
      out.push({ value, label })
    }
  }
  const named = new Map(company.map((c) => [c.id, c.name]))
  add(campaignCreative, `${named.get(campaignCreative) ?? `Creative ${campaignCreative.slice(0, 8)}`} (the campaign's)`)
  for (const w of weeks) add(w.creative_id, named.get(w.creative_id) ?? `Creative ${w.creative_id.slice(0, 8)}`)
  for (const c of [...company].sort((a, b) => Number(b.is_default) - Number(a.is_default))) add(c.id, c.is_default ? `${c.name} (default)` : c.name)
  return out
}

/**
 * The references of the last import that are still unmapped: the report lists what was unmapped
 * when it ran; a mapping set since removes the reference from the list.
 */
export function stillUnmapped(report: ImportReport | undefined, mappings: Mappings | undefined) {
  if (!report) return { displays: [] as string[], media: [] as string[] }
  const displays = new Set((mappings?.displays ?? []).map((d) => d.ref))
  const media = new Set((mappings?.media ?? []).map((m) => m.ref))
  return {
    displays: report.unmapped_displays.filter((r) => !displays.has(r)),
    media: report.unmapped_media.filter((r) => !media.has(r)),
  }
}

/** The label of a row reason's kind. */
export function kindLabel(kind: string): string {
  switch (kind) {
    case 'refused':
      return 'Refused'
    case 'flagged':
      return 'Flagged'
    case 'duplicate':
      return 'Duplicate'
  }
  return kind
}
