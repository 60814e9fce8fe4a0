// Error bars for the panel's line charts: a Chart.js plugin that draws, for each visible dataset
// carrying `errorBars` (one `{ low, high }` or null per point), a vertical whisker with caps at the
// point, in the dataset's colour, clipped to the plot area. The intervals are the 95 % intervals of
// the points' means (client/src/panel/comparisonTables.ts). A small plugin of our own rather than
// `chartjs-chart-error-bars`, which needs its own chart types (the panel's line charts, their
// bands, legend and SVG export would all change) for what is a few strokes here.
import type { Chart, Plugin } from 'chart.js';

export type ErrorBar = { low: number; high: number } | null | undefined;

export const errorBarsPlugin: Plugin<'line'> = {
  id: 'onloadErrorBars',
  afterDatasetsDraw(chart: Chart<'line'>) {
    const { ctx, chartArea } = chart;
    const y = chart.scales.y;
    if (!chartArea || !y) return;
    let drawn = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(chartArea.left, chartArea.top, chartArea.right - chartArea.left, chartArea.bottom - chartArea.top);
    ctx.clip();
    chart.data.datasets.forEach((dataset, index) => {
      const bars = (dataset as { errorBars?: ErrorBar[] }).errorBars;
      if (!bars || !chart.isDatasetVisible(index)) return;
      const points = chart.getDatasetMeta(index).data;
      ctx.strokeStyle = String(dataset.borderColor);
      ctx.lineWidth = 1.5;
      bars.forEach((bar, at) => {
        const point = points[at];
        if (!bar || !point || !Number.isFinite(bar.low) || !Number.isFinite(bar.high)) return;
        const top = y.getPixelForValue(bar.high);
        const bottom = y.getPixelForValue(bar.low);
        ctx.beginPath();
        ctx.moveTo(point.x, top);
        ctx.lineTo(point.x, bottom);
        ctx.moveTo(point.x - 4, top);
        ctx.lineTo(point.x + 4, top);
        ctx.moveTo(point.x - 4, bottom);
        ctx.lineTo(point.x + 4, bottom);
        ctx.stroke();
        drawn += 1;
      });
    });
    ctx.restore();
    // How many bars are on screen, for tests and for the curious (the canvas is otherwise opaque).
    const canvas = chart.canvas as HTMLCanvasElement | undefined;
    if (canvas?.dataset) canvas.dataset.errorBars = String(drawn);
  },
};
