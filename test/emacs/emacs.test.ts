// Real third-party clients: Debian's Emacs 28 (emacs-nox) with eglot 1.9 and with lsp-mode 8
// (elpa-eglot, elpa-lsp-mode; installed by scripts/setup-system.sh), in batch mode, drive
// dist/server.js --stdio with the configurations the README gives (test/emacs/eglot.el and
// lsp-mode.el, checked to be quoted verbatim) through test/emacs/drive-*.el. What each shows is
// compared with `onload-bench lint --format json` on the same files; the client's own logs must
// hold no warning or error (eglot once warned at every start about a registration it never
// declared; lsp-mode added a TAB after every completion in workload files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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

interface Shown {
  lnum: number;
  col: number;
  end_lnum: number;
  end_col: number;
  severity: number;
  code: string;
}

/** Lint's findings as flymake shows them: 0-based, information and hints as notes (3). */
const asFlymake = (findings: LintFinding[]): Shown[] =>
  findings
    .map((f) => ({
      lnum: f.line - 1,
      col: f.column - 1,
      end_lnum: f.endLine - 1,
      end_col: f.endColumn - 1,
      severity: f.severity === 'error' ? 1 : f.severity === 'warning' ? 2 : 3,
      code: f.code,
    }))
    .sort((a, b) => a.lnum - b.lnum || a.col - b.col);
const codesByLine = (list: Shown[]) => list.map((d) => [d.lnum, d.code]);

function drive(client: 'eglot' | 'lsp-mode'): { seen: Record<string, any>; ws: string; stderr: string } {
  const ws = editorWorkspace(`emacs-${client}-`);
  const home = mkdtempSync(join(tmpdir(), 'emacs-home-'));
  const out = join(ws, 'out.json');
  try {
    const run = spawnSync('emacs', ['--batch', '-l', `test/emacs/drive-${client}.el`], {
      encoding: 'utf8',
      timeout: 90_000,
      env: {
        ...process.env,
        HOME: home,
        WORKSPACE: ws,
        SERVER: resolve('dist/server.js'),
        CONFIG: resolve(`test/emacs/${client}.el`),
        OUT: out,
      },
    });
    assert.equal(
      run.error,
      undefined,
      `emacs could not run (scripts/setup-system.sh installs emacs-nox, elpa-eglot and elpa-lsp-mode): ${run.error}`,
    );
    const seen = JSON.parse(readFileSync(out, 'utf8')) as Record<string, any>;
    if (typeof seen.client_capabilities_json === 'string')
      seen.client_capabilities = JSON.parse(seen.client_capabilities_json);
    assert.equal(seen.failure, undefined, `${seen.failure}\n${run.stderr}`);
    assert.equal(run.status, 0, run.stderr);
    return { seen, ws, stderr: run.stderr };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function assertUse(seen: Record<string, any>, ws: string): void {
  // Nothing in the client's own logs is a warning or an error.
  assert.equal(seen.warnings, '', `*Warnings*:\n${seen.warnings}`);
  assert.deepEqual(seen.flagged_messages ?? [], [], `*Messages*:\n${seen.messages}`);
  assert.equal(seen.mode, 'onload-profile-mode');
  assert.equal(seen.workload_mode, 'ycsb-workload-mode');
  // Diagnostics as flymake shows them, range for range those of lint.
  assertDiagnosticsAsLint(seen, ws, asFlymake);
  // Completion picked from the candidates, each line exactly as it should read (no TAB after it).
  assertCompletedLines(seen);
  // Hover as the client renders it; no pointer to a command only VS Code has.
  assert.match(seen.hover_option, /EF_POLL_USEC/);
  assert.match(seen.hover_option, /Effective value here/);
  assert.doesNotMatch(seen.hover_option, /Show effective Onload configuration/);
  assert.match(seen.hover_import, /onload_import latency\W+resolves to the profile Onload ships/);
  // The quick fix picked from the client's menu changes the buffer.
  assert.ok(seen.offered_fixes.includes('Change to EF_SPIN_USEC'), seen.offered_fixes.join(', '));
  assert.match(seen.line_before_fix, /^onload_set EF_SPIN_USC /);
  assert.equal(seen.fixed_line, seen.line_before_fix.replace('EF_SPIN_USC', 'EF_SPIN_USEC'));
  // Go to definition through profilePath, back, an edit checked, then its correction.
  assert.equal(seen.definition, 'my-profiles/shared-tuning.opf-fragment');
  assert.equal(seen.back_in, 'profiles/via-path.opf');
  assert.deepEqual(codesByLine(seen.edited), [
    [1, 'ineffective-assignment'],
    [2, 'unknown-option'],
  ]);
  assert.equal(
    seen.corrected_text,
    'onload_import shared-tuning\nonload_set EF_SPIN_USEC 3\nonload_set EF_BUZZ_USEC 2\n',
  );
  assert.deepEqual(codesByLine(seen.corrected), [[1, 'ineffective-assignment']]);
}

/** The README's configuration for CLIENT, driven; what it declared must be the captured fixture. */
function driveAsReadme(client: 'eglot' | 'lsp-mode', fixture: string, more: (seen: Record<string, any>) => void): void {
  assertReadmeQuotes(`test/emacs/${client}.el`, 'elisp');
  const { seen, ws } = drive(client);
  try {
    // What the client declared is what test/server/realClientManners.test.ts sends for it.
    assert.deepEqual(
      seen.client_capabilities,
      JSON.parse(readFileSync(`test/fixtures/clients/${fixture}.initialize.json`, 'utf8')).capabilities,
    );
    assertUse(seen, ws);
    more(seen);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

test('Emacs 28 with eglot 1.9, configured as the README says', { timeout: 120_000 }, () => {
  driveAsReadme('eglot', 'eglot-1.9', (seen) => {
    assert.equal(seen.servers, 2, 'eglot 1.9 gives a server one language id: one server per language');
    assert.doesNotMatch(seen.events, /:error\s*\(:code/, 'no request failed');
  });
});

test(
  'Emacs 28 with lsp-mode 8, configured as the README says (the project-root question answered with i)',
  { timeout: 120_000 },
  () => {
    driveAsReadme('lsp-mode', 'lsp-mode-8.0.0', (seen) => {
      assert.equal(seen.root_prompt_answered, true);
      assert.equal(seen.servers, 1, 'one server for profiles and workloads');
      assert.doesNotMatch(seen.lsp_log, /error|warn|fail/i, seen.lsp_log);
    });
  },
);
