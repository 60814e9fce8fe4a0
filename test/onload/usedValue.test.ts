// One answer for what libonload uses (issue 22 item 5): the diagnostic, the hover, the effective
// configuration and `lint --format json` on the same profile. Before, the diagnostic said 'sf-np'
// is used for `onload_set EF_CTPIO_MODE 2` while the hover said "Effective value here: 2", the
// effective configuration listed CTPIO_MODE=2, TX_PUSH=2 and an empty CLUSTER_SIZE, and a hover on
// a value-less `onload_set EF_TCP_SNDBUF` showed "Effective value here: ``".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EffectiveConfigurationRequest, type EffectiveConfigurationResult } from '../../server/src/protocol';
import { fileUri, startTestClient } from '../support/lspClient';

const text = [
  'onload_set EF_CTPIO_MODE 2',
  'onload_set EF_TX_PUSH 2',
  'onload_set EF_CLUSTER_SIZE',
  'onload_set EF_TCP_SNDBUF',
  'onload_set EF_POLL_USEC 5',
  '',
].join('\n');

/** What libonload uses, line by line (0-based), as each view must say it. */
const expected: [line: number, name: string, exported: string, used: string][] = [
  [0, 'EF_CTPIO_MODE', '2', 'sf-np'],
  [1, 'EF_TX_PUSH', '2', '0'],
  [2, 'EF_CLUSTER_SIZE', 'EF_CLUSTER_SIZE', '0'],
  [3, 'EF_TCP_SNDBUF', 'EF_TCP_SNDBUF', '0'],
];

test('diagnostic, hover, effective configuration and lint --format json give the same used value', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'used-value-'));
  const path = join(folder, 'used.opf');
  writeFileSync(path, text);
  const uri = fileUri(path);
  const client = await startTestClient([folder]);
  try {
    await client.open(uri, 'onload-profile', text);
    const diagnostics = await client.diagnostics(uri);
    const effective = await client.connection.sendRequest<EffectiveConfigurationResult>(
      EffectiveConfigurationRequest.method,
      { uri },
    );
    const lint = spawnSync(process.execPath, ['dist/cli.js', 'lint', '--format', 'json', path], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    const findings = JSON.parse(lint.stdout) as { line: number; code: string; message: string; uses?: string }[];
    for (const [line, name, exported, used] of expected) {
      const about = diagnostics.filter(
        (d) => d.range.start.line === line && (d.data as { used?: string } | undefined)?.used !== undefined,
      );
      assert.equal(about.length, 1, `one diagnostic says what line ${line + 1} ends up as`);
      assert.equal((about[0]!.data as { used: string }).used, used, name);
      assert.ok(String(about[0]!.message).includes(used), String(about[0]!.message));
      const hover = (await client.hover(uri, { line, character: 13 }))?.contents as { value: string };
      const here = /\*\*Effective value here:\*\* (.*)/.exec(hover.value)?.[1] ?? '';
      assert.ok(here.startsWith(`\`${exported}\``), here);
      assert.ok(here.includes(`which libonload reads as \`${used}\``), here);
      assert.deepEqual(
        effective.entries.find((entry) => entry.name === name),
        { name, value: exported, used, uri, line, conditional: false },
      );
      assert.ok(effective.markdown.includes(`| \`${name}\` | \`${exported}\` → \`${used}\` |`), effective.markdown);
      assert.deepEqual(
        findings
          .filter((finding) => finding.line === line + 1 && finding.uses !== undefined)
          .map((finding) => finding.uses),
        [used],
        name,
      );
    }
    // An empty value is never shown as an empty one.
    for (const line of [2, 3]) {
      const hover = (await client.hover(uri, { line, character: 13 }))?.contents as { value: string };
      assert.doesNotMatch(hover.value, /``/);
      assert.match(hover.value, /an empty value sets the variable to its own name/);
    }
    // A value libonload takes as written is shown as it is, with nothing about what libonload uses.
    const poll = (await client.hover(uri, { line: 4, character: 13 }))?.contents as { value: string };
    assert.match(poll.value, /\*\*Effective value here:\*\* `5`, unless the environment already sets EF_POLL_USEC\./);
    assert.deepEqual(
      effective.entries.find((entry) => entry.name === 'EF_POLL_USEC'),
      { name: 'EF_POLL_USEC', value: '5', uri, line: 4, conditional: false },
    );
  } finally {
    await client.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});
