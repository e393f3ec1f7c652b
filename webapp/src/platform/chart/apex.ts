import ReactApexChartImport from 'react-apexcharts'

// react-apexcharts is CommonJS with `exports.default`; Vite's production build hands the whole
// exports object to a default import, the dev server the component itself. Take whichever came.
// Imported only by the lazily loaded drawings, so ApexCharts stays in their chunks.
export const ReactApexChart =
  (ReactApexChartImport as unknown as { default?: typeof ReactApexChartImport }).default ?? ReactApexChartImport
