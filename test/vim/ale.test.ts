// A real third-party client: Debian's Vim 9 (vim-nox) with ALE 3.3 (vim-ale; installed by
// scripts/setup-system.sh), run without a terminal on a held-open stdin, drives dist/server.js
// --stdio with the configuration the README gives (test/vim/ale.vim, loaded as the vimrc and
// checked to be quoted verbatim) through test/vim/drive.vim. ALE's list is compared with
// `onload-bench lint --format json`; ALE once got no quick fix unless the cursor was on the first
// character of a word (it sends the word's range and no diagnostics).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  assertCompletedLines,
  assertDiagnosticsAsLint,
  assertReadmeQuotes,
  editorWorkspace,
  type LintFinding,
} from '../support/realEditors';

interface Item {
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  type: string;
  code: string;
}

/** Lint's findings as ALE lists them: 1-based start, end column inclusive, information as W (ALE 3.3). */
const asAle = (findings: LintFinding[]): Item[] =>
  findings
    .map((f) => ({
      lnum: f.line,
      col: f.column,
      end_lnum: f.endLine,
      end_col: f.endColumn - 1,
      type: f.severity === 'error' ? 'E' : 'W',
      code: f.code,
    }))
    .sort((a, b) => a.lnum - b.lnum || a.col - b.col);
const codesByLine = (list: Item[]) => list.map((item) => [item.lnum, item.code]);

/** Vim without a terminal: stdin stays open (at its end Vim would quit), the screen is discarded. */
function runVim(env: NodeJS.ProcessEnv, args: string[]): Promise<number | null> {
  return new Promise((resolveExit, reject) => {
    const vim = spawn('vim', args, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    const timer = setTimeout(() => vim.kill('SIGKILL'), 90_000);
    vim.on('error', reject);
    vim.on('exit', (code) => {
      clearTimeout(timer);
      resolveExit(code);
    });
  });
}

test('Vim 9 with ALE 3.3, configured as the README says', { timeout: 120_000 }, async () => {
  assertReadmeQuotes('test/vim/ale.vim', 'vim');
  const ws = editorWorkspace('vim-ale-');
  const home = mkdtempSync(join(tmpdir(), 'vim-home-'));
  const out = join(ws, 'out.json');
  try {
    const status = await runVim({ ...process.env, HOME: home, WORKSPACE: ws, OUT: out }, [
      '-N',
      '-u',
      'test/vim/ale.vim',
      '-i',
      'NONE',
      '--not-a-term',
      '--cmd',
      `let g:onload_bench_server = '${resolve('dist/server.js')}'`,
      '--cmd',
      "let g:onload_bench_profile_path = ['my-profiles']",
      '-S',
      'test/vim/drive.vim',
    ]).catch((error: Error) =>
      assert.fail(`vim could not run (scripts/setup-system.sh installs vim-nox and vim-ale): ${error.message}`),
    );
    const seen = JSON.parse(readFileSync(out, 'utf8')) as Record<string, any>;
    assert.equal(seen.failure, undefined, seen.failure);
    assert.equal(status, 0);

    assert.equal(seen.filetype, 'onloadprofile');
    assert.equal(seen.syntax, 'sh');
    assert.equal(seen.workload_filetype, 'ycsbworkload');
    // ALE's list, item for item that of lint.
    assertDiagnosticsAsLint(seen, ws, asAle);
    // <C-x><C-o>: each line as it should read.
    assertCompletedLines(seen);
    // :ALEHover, in plain text as ALE asks; nothing else was shown (no error of the server's).
    assert.match(seen.hover_option, /^EF_POLL_USEC — /);
    assert.match(seen.hover_option, /Effective value here: 100000/);
    assert.doesNotMatch(seen.hover_option, /\*\*|`|Show effective Onload configuration/);
    assert.match(seen.hover_import, /^onload_import latency resolves to the profile Onload ships/);
    assert.equal(seen.shown.length, 2, seen.shown.join('\n---\n'));
    // :ALECodeAction with the cursor inside the word: the fix is offered and applied.
    assert.match(seen.code_action_menu, /1\) Change to EF_SPIN_USEC\n/);
    assert.match(seen.line_before_fix, /^onload_set EF_SPIN_USC /);
    assert.equal(seen.fixed_line, seen.line_before_fix.replace('EF_SPIN_USC', 'EF_SPIN_USEC'));
    // :ALEGoToDefinition through profilePath; an edit checked, then its correction.
    assert.equal(seen.definition, 'my-profiles/shared-tuning.opf-fragment');
    assert.deepEqual(codesByLine(seen.edited), [
      [2, 'ineffective-assignment'],
      [3, 'unknown-option'],
    ]);
    assert.deepEqual(codesByLine(seen.corrected), [[2, 'ineffective-assignment']]);
    // ALE's history and Vim's messages hold no error.
    assert.ok(
      seen.history.every((entry: { status: unknown }) => entry.status === 1 || entry.status === 'started'),
      JSON.stringify(seen.history),
    );
    // (ALE echoes the diagnostic under the cursor as `code: message`: those lines are not the log.)
    const log = seen.messages
      .split('\n')
      .filter((line: string) => !/^[a-z0-9-]+: /.test(line))
      .join('\n');
    assert.doesNotMatch(log, /\bE\d+:|error|warning|failed/i, seen.messages);
  } finally {
    rmSync(ws, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});
