// Builds the results webview's HTML with a strict Content-Security-Policy: nothing remote, scripts
// and styles only from the extension's own files or carrying this render's nonce.
import { randomBytes } from 'node:crypto';

export interface PanelHtmlInput {
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  cspSource: string;
  /** Webview URI of dist/media/panel.js. */
  scriptUri: string;
  /** Webview URI of media/panel.css. */
  styleUri: string;
  /** Fresh for every render (see createNonce). */
  nonce: string;
  title: string;
}

/** 128 random bits, base64: a fresh one per render so an old page's nonce is worthless. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return (
    [
      `default-src 'none'`,
      `img-src ${cspSource} data:`,
      `style-src ${cspSource} 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ') + ';'
  );
}

const htmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => htmlEscapes[char]);
}

export function buildPanelHtml(input: PanelHtmlInput): string {
  const nonce = escapeHtml(input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(input.styleUri)}" nonce="${nonce}">
<title>${escapeHtml(input.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="placeholder">Loading results…</p></main>
<div id="live-region" class="visually-hidden" role="status" aria-live="polite"></div>
<script nonce="${nonce}" src="${escapeHtml(input.scriptUri)}"></script>
</body>
</html>
`;
}
