// Every message from the webview is checked before the host acts on it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { imageBytes, restoredRunDirs, validateWebviewMessage } from '../../client/src/panel/messageValidation';

const tinyPng = 'data:image/png;base64,iVBORw0KGgo=';

test('accepts each well-formed message and returns only its known fields', () => {
  assert.deepEqual(validateWebviewMessage({ type: 'ready', extra: 1 }), { ok: true, value: { type: 'ready' } });
  assert.deepEqual(validateWebviewMessage({ type: 'export-csv', runIndex: 1 }), {
    ok: true,
    value: { type: 'export-csv', runIndex: 1 },
  });
  assert.deepEqual(
    validateWebviewMessage({ type: 'save-image', format: 'png', name: 'run-25G-throughput', data: tinyPng, x: 'y' }),
    {
      ok: true,
      value: { type: 'save-image', format: 'png', name: 'run-25G-throughput', data: tinyPng },
    },
  );
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
  assert.equal(validateWebviewMessage({ type: 'save-image', format: 'svg', name: 'a.svg', data: svg }).ok, true);
});

test('rejects wrong shapes with a reason', () => {
  const cases: [unknown, RegExp][] = [
    [null, /not an object/],
    [[], /not an object/],
    ['ready', /not an object/],
    [{ type: 'open-file', path: '/etc/passwd' }, /unknown message type/],
    [{ type: 'export-csv' }, /runIndex/],
    [{ type: 'export-csv', runIndex: 2 }, /runIndex/],
    [{ type: 'export-csv', runIndex: 0.5 }, /runIndex/],
    [{ type: 'save-image', format: 'gif', name: 'a', data: tinyPng }, /format/],
    [{ type: 'save-image', format: 'png', name: '../../evil', data: tinyPng }, /name/],
    [{ type: 'save-image', format: 'png', name: 'a/b', data: tinyPng }, /name/],
    [{ type: 'save-image', format: 'png', name: '.hidden', data: tinyPng }, /name/],
    [{ type: 'save-image', format: 'png', name: 'a', data: 'data:text/html;base64,PGI+' }, /PNG data URL/],
    [{ type: 'save-image', format: 'png', name: 'a', data: 'data:image/png;base64,<script>' }, /not base64/],
    [{ type: 'save-image', format: 'svg', name: 'a', data: '<html><svg></svg></html>' }, /svg/],
    [{ type: 'save-image', format: 'svg', name: 'a', data: '' }, /non-empty/],
  ];
  for (const [message, reason] of cases) {
    const result = validateWebviewMessage(message);
    assert.equal(result.ok, false, JSON.stringify(message));
    if (!result.ok) assert.match(result.error, reason);
  }
});

test('image bytes: PNG decoded from base64, SVG as UTF-8 text', () => {
  assert.deepEqual([...imageBytes({ format: 'png', data: tinyPng })], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(Buffer.from(imageBytes({ format: 'svg', data: '<svg>µ</svg>' })).toString('utf8'), '<svg>µ</svg>');
});

test('restored state gives back one or two run folders, or nothing when damaged', () => {
  assert.deepEqual(restoredRunDirs({ runDirs: ['/r/a'], scrollY: 10 }), ['/r/a']);
  assert.deepEqual(restoredRunDirs({ runDirs: ['/r/a', '/r/b'] }), ['/r/a', '/r/b']);
  assert.equal(restoredRunDirs(undefined), undefined);
  assert.equal(restoredRunDirs({ runDirs: [] }), undefined);
  assert.equal(restoredRunDirs({ runDirs: ['/a', '/b', '/c'] }), undefined);
  assert.equal(restoredRunDirs({ runDirs: [42] }), undefined);
  assert.equal(restoredRunDirs({ runDirs: ['/a\0b'] }), undefined);
});
