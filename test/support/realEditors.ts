// What the real-editor tests share (test/neovim, test/emacs, test/vim): the workspace each editor
// opens, `onload-bench lint --format json` as the reference for what diagnostics must show, and
// the check that the README quotes the configuration each test loads, byte for byte.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LintFinding {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  code: string;
  message: string;
}

export function lintJson(file: string, ...flags: string[]): LintFinding[] {
  const result = spawnSync(process.execPath, ['dist/cli.js', 'lint', '--format', 'json', ...flags, file], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return JSON.parse(result.stdout) as LintFinding[];
}

/** A workload with a problem of each severity that a quick fix or lint can show. */
export const problemWorkload =
  'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=1000\nreadproportion=0.5\nupdateproportion=O.5\ninsertorder=Hashed\nrequestdistribution=zipfian\n';

/**
 * A project (a git repository, as Emacs' project.el and lsp-mode find roots) with the example of
 * mistakes, a workload with problems, and a profile whose import is found only through the
 * `profilePath` folder `my-profiles`.
 */
export function editorWorkspace(prefix: string): string {
  const ws = mkdtempSync(join(tmpdir(), prefix));
  for (const folder of ['profiles', 'workloads', 'my-profiles']) mkdirSync(join(ws, folder));
  copyFileSync('examples/profiles/mistakes.opf', join(ws, 'profiles', 'mistakes.opf'));
  writeFileSync(join(ws, 'workloads', 'workloadx'), problemWorkload);
  writeFileSync(join(ws, 'profiles', 'via-path.opf'), 'onload_import shared-tuning\nonload_set EF_SPIN_USEC 3\n');
  writeFileSync(join(ws, 'my-profiles', 'shared-tuning.opf-fragment'), 'onload_set EF_SPIN_USEC 1\n');
  const git = spawnSync('git', ['init', '-q', ws], { encoding: 'utf8' });
  assert.equal(git.status, 0, git.stderr);
  return ws;
}

/** The README shows `config` exactly as the test loads it, in a fenced block of `language`. */
export function assertReadmeQuotes(config: string, language: string): void {
  const text = readFileSync(config, 'utf8');
  assert.ok(
    readFileSync('README.md', 'utf8').includes(`\`\`\`${language}\n${text}\`\`\``),
    `the README quotes ${config} verbatim`,
  );
}

/**
 * The lines after completing, in the same file each editor test writes them (`[line, candidates]`
 * per completion): an option name, an option value, a workload key (with its default) and value,
 * each exactly (lsp-mode once added a TAB after each).
 */
export function assertCompletedLines(seen: Record<string, [string, string[]]>): void {
  assert.equal(seen.option_completion?.[0], 'onload_set EF_POLL_USEC');
  assert.equal(seen.value_completion?.[0], 'onload_set EF_CTPIO_MODE ct');
  assert.equal(seen.key_completion?.[0], 'operationcount=0');
  assert.equal(seen.workload_value_completion?.[0], 'requestdistribution=zipfian');
}

/**
 * What an editor showed for the example of mistakes and the problem workload is lint's findings, in that editor's form.
 */
export function assertDiagnosticsAsLint(
  seen: Record<string, unknown>,
  ws: string,
  as: (findings: LintFinding[]) => unknown[],
): void {
  const mistakes = as(lintJson(join(ws, 'profiles', 'mistakes.opf')));
  assert.ok(mistakes.length >= 10);
  assert.deepEqual(seen.mistakes, mistakes);
  assert.deepEqual(seen.workload, as(lintJson(join(ws, 'workloads', 'workloadx'))));
}
