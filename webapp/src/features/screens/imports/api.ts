import { api } from '../../../platform/api'
import type { CampaignList, Week } from '../../../platform/api-types/campaigns'
import type { Creative } from '../../../platform/api-types/creatives'
import type { Page } from '../../../platform/api-types/pagination'
import type { ImportList, Mappings } from '../../../platform/api-types/screens'

// The admin import calls (docs/screens-import.md), and the campaign reads the mapping pickers
// need (a feature does not import another's api: these are the same routes, read here).
export const importsApi = api.enhanceEndpoints({ addTagTypes: ['ScreenImports', 'ScreenMappings'] }).injectEndpoints({
  endpoints: (build) => ({
    screenImports: build.query<ImportList, void>({
      query: () => '/api/admin/screens/imports',
      providesTags: ['ScreenImports'],
    }),
    importMappings: build.query<Mappings, void>({
      query: () => '/api/admin/screens/mappings',
      providesTags: ['ScreenMappings'],
    }),
    setImportMappings: build.mutation<Mappings, Mappings>({
      query: (body) => ({ url: '/api/admin/screens/mappings', method: 'PUT', body }),
      invalidatesTags: ['ScreenMappings'],
    }),
    mappingCampaigns: build.query<CampaignList, void>({
      query: () => ({ url: '/api/admin/campaigns/', params: { page: 1, page_size: 100 } }),
    }),
    // The company's creatives: a campaign without its own plays its company's default one.
    mappingCreatives: build.query<Page<Creative>, string>({
      query: (company) => ({ url: '/api/creatives/', params: { company, page: 1, page_size: 50 } }),
    }),
    mappingWeeks: build.query<Page<Week>, string>({
      query: (id) => ({ url: `/api/campaigns/${encodeURIComponent(id)}/weeks`, params: { page: 1, page_size: 100 } }),
    }),
  }),
})

export const {
  useScreenImportsQuery,
  useImportMappingsQuery,
  useSetImportMappingsMutation,
  useMappingCampaignsQuery,
  useMappingWeeksQuery,
  useMappingCreativesQuery,
} = importsApi

/** After an upload: the list of imports is stale. */
export const importsChanged = () => importsApi.util.invalidateTags(['ScreenImports'])
