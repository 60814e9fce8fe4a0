// Line charts over a continuous x axis (seconds of a run, places on the percentile "nines" scale)
// for the spectrum and time-series views. Same rules as charts.ts: no animation, theme colours,
// the plot area exposed for pixel tests.
import { Chart, type ChartConfiguration, type Plugin } from 'chart.js';
import type { ThemeColours } from './theme.js';

export interface XySeries {
  label: string;
  colour: string;
  points: { x: number; y: number }[];
  dashed?: boolean;
}

export interface XyChartSpec {
  xTitle: string;
  yTitle: string;
  series: XySeries[];
  /** Fixed x ticks (value and label); otherwise Chart.js picks them. */
  xTicks?: { x: number; label: string }[];
  /** With xTicks: room on each side, as a share of their span, so no point sits on the plot's edge. */
  xMargin?: number;
  /** Formats a tooltip line for a series and point. */
  tooltip?: (series: XySeries, point: { x: number; y: number }) => string;
  /** Vertical dashed lines with a label at the top, e.g. where the warm-up ends. */
  markers?: { x: number; label: string }[];
}

/** Draws the spec's markers over the plot area, in the foreground colour. */
function markersPlugin(markers: readonly { x: number; label: string }[], colour: string): Plugin<'line'> {
  return {
    id: 'onloadMarkers',
    afterDatasetsDraw(chart) {
      const { ctx, chartArea } = chart;
      const x = chart.scales.x;
      if (!chartArea || !x) return;
      ctx.save();
      ctx.strokeStyle = colour;
      ctx.fillStyle = colour;
      ctx.setLineDash([4, 4]);
      ctx.lineWidth = 1;
      for (const marker of markers) {
        const at = x.getPixelForValue(marker.x);
        if (at < chartArea.left || at > chartArea.right) continue;
        ctx.beginPath();
        ctx.moveTo(at, chartArea.top);
        ctx.lineTo(at, chartArea.bottom);
        ctx.stroke();
        ctx.fillText(marker.label, at + 4, chartArea.top + 12);
      }
      ctx.restore();
    },
  };
}

type XyConfig = ChartConfiguration<'line', { x: number; y: number }[]>;

/** The chart's configuration: on screen and in its PNG/SVG files (chartExport.ts). */
export function xyChartConfig(spec: XyChartSpec, theme: ThemeColours): XyConfig {
  const ticks = spec.xTicks;
  const span = ticks ? ticks[ticks.length - 1].x - ticks[0].x : 0;
  const margin = ticks && spec.xMargin ? (span > 0 ? span * spec.xMargin : 0.5) : 0;
  return {
    type: 'line',
    plugins: spec.markers && spec.markers.length > 0 ? [markersPlugin(spec.markers, theme.foreground)] : [],
    data: {
      datasets: spec.series.map((series) => ({
        label: series.label,
        data: series.points,
        borderColor: series.colour,
        backgroundColor: series.colour,
        borderWidth: 2,
        borderDash: series.dashed ? [6, 4] : [],
        pointRadius: series.points.length > 40 ? 0 : 2,
        pointHitRadius: 6,
        fill: false,
        parsing: false,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false },
      color: theme.foreground,
      scales: {
        x: {
          type: 'linear',
          min: ticks ? ticks[0].x - margin : undefined,
          max: ticks ? ticks[ticks.length - 1].x + margin : undefined,
          title: { display: true, text: spec.xTitle, color: theme.foreground },
          grid: { color: theme.grid },
          ticks: {
            color: theme.foreground,
            ...(ticks
              ? {
                  stepSize: 1,
                  includeBounds: margin === 0,
                  callback: (value: string | number) =>
                    ticks.find((tick) => Math.abs(tick.x - Number(value)) < 1e-9)?.label ?? '',
                }
              : {}),
          },
        },
        y: {
          beginAtZero: true,
          title: { display: true, text: spec.yTitle, color: theme.foreground },
          grid: { color: theme.grid },
          ticks: { color: theme.foreground },
        },
      },
      plugins: {
        legend: { labels: { color: theme.foreground } },
        tooltip: {
          callbacks: {
            label: (item) => {
              const series = spec.series[item.datasetIndex];
              const point = series?.points[item.dataIndex];
              return series && point
                ? spec.tooltip
                  ? spec.tooltip(series, point)
                  : `${series.label}: ${point.y}`
                : '';
            },
          },
        },
      },
    },
  };
}

export function createXyChart(
  canvas: HTMLCanvasElement,
  spec: XyChartSpec,
  theme: ThemeColours,
): Chart<'line', { x: number; y: number }[]> {
  Chart.defaults.font.family = theme.fontFamily;
  const chart = new Chart<'line', { x: number; y: number }[]>(canvas, xyChartConfig(spec, theme));
  const area = chart.chartArea;
  if (area)
    canvas.dataset.plotArea = [area.left, area.top, area.right, area.bottom]
      .map((value) => Math.round(value))
      .join(',');
  // Where the fixed ticks land, for pixel tests: inside the plot area when the spec leaves a margin.
  if (spec.xTicks && chart.scales.x)
    canvas.dataset.xTickPixels = spec.xTicks
      .map((tick) => Math.round(chart.scales.x.getPixelForValue(tick.x)))
      .join(',');
  if (spec.markers && spec.markers.length > 0)
    canvas.dataset.markers = spec.markers.map((marker) => marker.x).join(',');
  return chart;
}
