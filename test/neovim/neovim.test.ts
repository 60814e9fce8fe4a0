// A real third-party client: Debian's Neovim (0.7, installed by scripts/setup-system.sh) drives
// dist/server.js --stdio with its built-in LSP client (test/neovim/drive.lua), started by the
// configuration the README gives (test/neovim/onload-bench.lua, checked to be quoted verbatim).
// Ranges are checked against `onload-bench lint --format json` on the same text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertReadmeQuotes, lintJson, problemWorkload, type LintFinding } from '../support/realEditors';

interface VimDiagnostic {
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  severity: number;
  code: string;
  message: string;
}

const severities: Record<string, number> = { error: 1, warning: 2, info: 3, hint: 4 };

/** Lint's findings as Neovim shows them (0-based; the files compared are ASCII where it matters). */
const asVim = (findings: LintFinding[]) =>
  findings
    .map((f) => ({
      lnum: f.line - 1,
      col: f.column - 1,
      end_lnum: f.endLine - 1,
      end_col: f.endColumn - 1,
      severity: severities[f.severity],
      code: f.code,
      message: f.message,
    }))
    .sort((a, b) => a.lnum - b.lnum || a.col - b.col);
const sortVim = (list: VimDiagnostic[]) => [...list].sort((a, b) => a.lnum - b.lnum || a.col - b.col);

test('Neovim 0.7 with its built-in LSP client, against dist/server.js --stdio', { timeout: 120_000 }, () => {
  const version = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
  assert.equal(version.error, undefined, "nvim is missing: scripts/setup-system.sh installs Debian's neovim");
  const ws = mkdtempSync(join(tmpdir(), 'nvim-ws-'));
  try {
    mkdirSync(join(ws, 'profiles'));
    mkdirSync(join(ws, 'workloads'));
    mkdirSync(join(ws, 'my-profiles'));
    copyFileSync('examples/profiles/mistakes.opf', join(ws, 'profiles', 'mistakes.opf'));
    copyFileSync('examples/profiles/couchbase-latency.opf', join(ws, 'profiles', 'couchbase-latency.opf'));
    copyFileSync('examples/workloads/workloada', join(ws, 'workloads', 'workloada'));
    copyFileSync('examples/workloads/workloade', join(ws, 'workloads', 'workloade'));
    writeFileSync(join(ws, 'profiles', 'outside.opf'), 'onload_import from-terminal\nonload_set EF_SPIN_USEC 2\n');
    writeFileSync(join(ws, 'workloads', 'workloadx'), problemWorkload);
    writeFileSync(join(ws, 'profiles', 'main.opf'), 'onload_import created-later\nonload_set EF_POLL_USEC 5\n');
    writeFileSync(join(ws, 'profiles', 'via-path.opf'), 'onload_import shared-tuning\nonload_set EF_SPIN_USEC 3\n');
    writeFileSync(join(ws, 'my-profiles', 'shared-tuning.opf-fragment'), 'onload_set EF_SPIN_USEC 1\n');
    const lintedMistakes = lintJson(join(ws, 'profiles', 'mistakes.opf'));
    const lintedWorkload = lintJson(join(ws, 'workloads', 'workloadx'));

    const out = join(ws, 'out.json');
    const run = spawnSync(
      'nvim',
      ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', 'luafile test/neovim/drive.lua'],
      {
        encoding: 'utf8',
        timeout: 100_000,
        env: {
          ...process.env,
          WORKSPACE: ws,
          SERVER: resolve('dist/server.js'),
          OUT: out,
          CONFIG: resolve('test/neovim/onload-bench.lua'),
        },
      },
    );
    const seen = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(seen.failure, undefined, `${seen.failure}\n${run.stderr}`);
    assert.equal(run.status, 0, run.stderr);

    // What the real client sends (the server is written for this, not for an imagined client).
    const completionItem = seen.capabilities.textDocument.completion.completionItem;
    assert.equal(completionItem.snippetSupport, false);
    assert.equal(seen.capabilities.workspace.didChangeWatchedFiles, undefined, 'Neovim 0.7 cannot watch files');
    // The README's configuration opens profiles as `sh` and workloads as `jproperties` (the
    // language ids Neovim sends): the server goes by the file name. One server for all of them.
    assert.equal(seen.filetype, 'sh');
    assert.equal(seen.workload_filetype, 'jproperties');
    assert.equal(seen.clients, 1);
    assert.equal(seen.omnifunc, 'v:lua.vim.lsp.omnifunc');
    assertReadmeQuotes('test/neovim/onload-bench.lua', 'lua');

    // Diagnostics as Neovim shows them, range for range the same as lint's; none on the clean examples.
    assert.ok(seen.mistakes.length >= 10);
    assert.deepEqual(sortVim(seen.mistakes), asVim(lintedMistakes));
    assert.deepEqual(sortVim(seen.workload), asVim(lintedWorkload));
    assert.ok(seen.workload.some((d: VimDiagnostic) => d.code === 'invalid-number'));
    for (const name of ['profiles/couchbase-latency.opf', 'workloads/workloada', 'workloads/workloade']) {
      assert.deepEqual(lintJson(join(ws, name)), [], name);
      assert.deepEqual(seen.clean[name], [], name);
    }

    // Completion without snippets, as the omnifunc inserts it: plain words, no `$1` or `${1:…}`.
    assert.deepEqual([...seen.completion_words].sort(), ['onload_import ', 'onload_set ']);
    assert.deepEqual(seen.after_completion, ['onload_set ']);
    assert.equal(seen.option_word, 'EF_POLL_USEC');
    assert.ok(
      seen.key_words.length > 0 && seen.key_words.every((word: string) => /^operationcount=\d*$/.test(word)),
      seen.key_words.join(' | '),
    );

    // The quick fix picked from vim.lsp.buf.code_action() (data round-tripped through Lua) changes the buffer.
    assert.ok(seen.offered_fixes.includes('Change to EF_SPIN_USEC'), seen.offered_fixes.join(', '));
    assert.match(seen.line_before_fix, /^onload_set EF_SPIN_USC /);
    assert.equal(seen.fixed_line, seen.line_before_fix.replace('EF_SPIN_USC', 'EF_SPIN_USEC'));

    // An import that resolves after the imported file is created in Neovim; one created outside it,
    // seen at the importer's :w; one found through profilePath.
    assert.deepEqual(
      seen.before_create.map((d: VimDiagnostic) => d.code),
      ['unresolved-import'],
    );
    assert.deepEqual(
      seen.after_create.map((d: VimDiagnostic) => d.code),
      ['ineffective-assignment'],
    );
    assert.deepEqual(
      seen.outside.map((d: VimDiagnostic) => [d.code, d.lnum]),
      [['ineffective-assignment', 1]],
    );
    assert.deepEqual(
      seen.via_path.map((d: VimDiagnostic) => [d.code, d.lnum]),
      [['ineffective-assignment', 1]],
    );

    // Incremental edits end in the diagnostics of the final text.
    const finalText = join(ws, 'profiles', 'final.opf');
    writeFileSync(finalText, `${seen.edited_text.join('\n')}\n`);
    assert.deepEqual(seen.edited_text, [
      'onload_set EF_POLL_USEC 5; onload_set EF_SPIN_USEC 1',
      'onload_set EF_INT_DRIVEN 0 ',
      '# é ü — comment',
      'onload_set EF_TX_PUSH 2',
    ]);
    assert.deepEqual(sortVim(seen.edited), asVim(lintJson(finalText)));

    // Hover: Markdown as Neovim asks; plain text, without Markdown marks, for a plain-text client.
    assert.equal(seen.hover_markdown.kind, 'markdown');
    assert.match(seen.hover_markdown.value, /\*\*EF_SPIN_USEC\*\*/);
    assert.equal(seen.hover_plain.kind, 'plaintext');
    assert.match(seen.hover_plain.value, /^recordcount/);
    assert.doesNotMatch(seen.hover_plain.value, /\*\*|`|^---$/m);
    assert.equal(seen.hover_plain_profile.kind, 'plaintext');
    assert.match(seen.hover_plain_profile.value, /^EF_SPIN_USEC — /);
    assert.doesNotMatch(seen.hover_plain_profile.value, /\*\*|`|^---$/m);
    assert.equal(seen.documentation_plain.kind, 'plaintext');
    assert.match(seen.documentation_plain.value, /^EF_POLL_USEC — /);
    assert.doesNotMatch(seen.documentation_plain.value, /\*\*|`/);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
