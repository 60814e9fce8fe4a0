// Chart images for the host to save. PNG is the chart's own pixels on the theme's background
// (the canvas itself is transparent). SVG wraps those pixels in an <svg> so it scales in documents
// that want SVG; it is not a vector redraw (Chart.js draws only to canvas).

export function chartPng(canvas: HTMLCanvasElement, background: string): string {
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const context = copy.getContext('2d');
  if (!context) return canvas.toDataURL('image/png');
  context.fillStyle = background;
  context.fillRect(0, 0, copy.width, copy.height);
  context.drawImage(canvas, 0, 0);
  return copy.toDataURL('image/png');
}

export function chartSvg(canvas: HTMLCanvasElement, background: string, title: string): string {
  const png = chartPng(canvas, background);
  const width = canvas.clientWidth || canvas.width;
  const height = canvas.clientHeight || canvas.height;
  const escapedTitle = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<title>${escapedTitle}</title><image width="${width}" height="${height}" href="${png}"/></svg>`
  );
}

/** A file name the host accepts: letters, digits, dot, underscore and dash. */
export function imageFileName(...parts: string[]): string {
  const name = parts.join('-').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[^A-Za-z0-9]+/, '');
  return (name || 'chart').slice(0, 100);
}
