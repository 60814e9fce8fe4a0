// The webview's HTML: an exact strict CSP, a fresh nonce on the only script and stylesheet, and
// nothing loaded from anywhere but the webview's own resource origin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPanelHtml, contentSecurityPolicy, createNonce } from '../../client/src/panel/panelHtml';

const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
const input = {
  cspSource,
  scriptUri: `${cspSource}/ext/dist/media/panel.js`,
  styleUri: `${cspSource}/ext/media/panel.css`,
  nonce: 'bm9uY2Utb25l',
  title: 'Onload Bench Results: <run & "1">',
};

test('CSP directives are exactly the strict set', () => {
  assert.equal(
    contentSecurityPolicy(cspSource, 'N1'),
    `default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource} 'nonce-N1'; script-src 'nonce-N1';`,
  );
  const html = buildPanelHtml(input);
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(meta);
  assert.equal(meta[1], contentSecurityPolicy(cspSource, input.nonce).replace(/'/g, '&#39;'));
});

test('the one script and the one stylesheet carry the nonce; no inline script or handler', () => {
  const html = buildPanelHtml(input);
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)];
  assert.equal(scripts.length, 1);
  assert.match(scripts[0][1], / nonce="bm9uY2Utb25l"/);
  assert.match(scripts[0][1], new RegExp(`src="${input.scriptUri.replace(/[.+]/g, '\\$&')}"`));
  assert.match(html, /<script [^>]*><\/script>/, 'the script element has no inline body');
  assert.match(html, /<link rel="stylesheet" href="[^"]+panel\.css" nonce="bm9uY2Utb25l">/);
  assert.doesNotMatch(html, /\son[a-z]+=/i);
  assert.doesNotMatch(html, /<style/);
});

test('nothing remote: every URL is the webview resource origin', () => {
  const html = buildPanelHtml(input);
  const urls = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1]);
  assert.equal(urls.length, 2);
  for (const url of urls) assert.ok(url.startsWith(`${cspSource}/`), url);
  const allUrls = [...html.matchAll(/https?:\/\/[^\s"'<>;]+/g)].map((match) => match[0]);
  for (const url of allUrls) assert.ok(url.startsWith(cspSource), `unexpected URL ${url}`);
});

test('the title is escaped and nonces are fresh and long', () => {
  const html = buildPanelHtml(input);
  assert.match(html, /<title>Onload Bench Results: &lt;run &amp; &quot;1&quot;&gt;<\/title>/);
  const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
  assert.equal(nonces.size, 50);
  for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
});
