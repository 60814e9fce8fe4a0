// Chart images for the host to save, fit for a report: drawn again off screen at print resolution
// (at least 2 device pixels per CSS pixel), with the metric, unit, interface and run as a title and
// the legend inside the image, on a light background unless the user chose the theme's
// (setting onloadBench.results.exportBackground). SVG is the same drawing as vectors (charts.ts).
import type { ThemeColours } from './theme.js';

/** Size of an exported chart in CSS pixels (16:9, wide enough for a page). */
export const exportSize = { width: 960, height: 540 } as const;

/** Device pixels per CSS pixel of a PNG export: print resolution, never less than 2. */
export function exportPixelRatio(screenRatio: number): number {
  return Math.max(2, Math.ceil(screenRatio || 1));
}

/** The colours of an exported image: the theme's series on a light page, or the theme as is. */
export function exportTheme(theme: ThemeColours, background: 'light' | 'theme'): ThemeColours {
  if (background === 'theme') return theme;
  return { ...theme, background: '#ffffff', foreground: '#1f1f1f', grid: 'rgba(0, 0, 0, 0.15)' };
}

/** A file name the host accepts: letters, digits, dot, underscore and dash. */
export function imageFileName(...parts: string[]): string {
  const name = parts
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '');
  return (name || 'chart').slice(0, 100);
}
