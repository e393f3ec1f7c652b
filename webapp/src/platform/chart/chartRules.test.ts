import { describe, expect, it } from 'vitest'
import { apexSeries, EMPTY_Y_MAX, hasData, lineChartOptions } from './chartRules'

const labels = ['Week 1', 'Week 2', 'Week 3']

describe('line chart options', () => {
  it('runs the y-axis from 0 to 3 when there is no data (A §9)', () => {
    const options = lineChartOptions({ labels, series: [{ name: 'Minimum Impressions', data: [0, 0, 0] }, { name: 'Actual Impressions', data: [null, undefined, null] }] })
    expect(options.yaxis).toMatchObject({ min: 0, max: EMPTY_Y_MAX })
    expect(options.xaxis?.categories).toEqual(labels)
  })

  it('lets the axis follow the data when there is some', () => {
    const options = lineChartOptions({ labels, series: [{ name: 'Minimum Impressions', data: [1000, 1000, 1000] }] })
    expect(options.yaxis).toMatchObject({ min: 0 })
    expect((options.yaxis as { max?: number }).max).toBeUndefined()
  })

  it('keeps missing actual values as gaps, not zeros', () => {
    expect(apexSeries([{ name: 'Actual Impressions', data: [5, undefined, null] }])).toEqual([{ name: 'Actual Impressions', data: [5, null, null] }])
    expect(hasData([{ name: 'a', data: [null, 0] }])).toBe(false)
    expect(hasData([{ name: 'a', data: [null, 7] }])).toBe(true)
  })
})
