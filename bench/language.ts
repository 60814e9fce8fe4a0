// `npm run bench` (language part): how fast the language services answer, and the same input
// validated side by side by redhat's yaml-language-server against a JSON Schema of the same options.
// - full diagnostics of 100-, 10,000- and 100,000-line profiles (pure service; each run is a new
//   version of the same document, as when a user edits, so no cache helps);
// - completion latency, in process and over JSON-RPC to `node dist/server.js --stdio`;
// - server start-up (spawn to initialize answer) and resident memory with a 10,000-line profile open;
// - YCSB workload diagnostics for the same sizes.
// Figures only, no assertions.   node --import tsx bench/language.ts [--json]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from 'yaml-language-server/lib/umd/languageservice/yamlLanguageService';
import type { WorkspaceFiles } from '../server/src/common/languageFeatures';
import { neverCancelled } from '../server/src/common/languageFeatures';
import { OnloadLanguageService } from '../server/src/onload/service';
import { YcsbLanguageService } from '../server/src/ycsb/service';
import { startTestClient } from '../test/support/lspClient';
import { equivalentYaml, onloadProfile, typicalOnloadProfile } from './profiles';
import { round, time, type Timing } from './stats';

const noFiles: WorkspaceFiles = { read: async () => undefined, find: async () => [] };
const sizes = [100, 10_000, 100_000];

export interface LanguageFigures {
  /** Worst case: a flat profile where nearly every line repeats an option (about one diagnostic a line). */
  onloadDiagnostics: Record<string, Timing & { diagnostics: number }>;
  /** A profile shaped like real ones (case arms per application, comments, shell logic). */
  onloadTypicalDiagnostics: Record<string, Timing & { diagnostics: number }>;
  yamlLanguageServer: Record<string, Timing & { diagnostics: number }>;
  /** yaml-language-server median / ours, per size. */
  speedup: Record<string, number>;
  ycsbDiagnostics: Record<string, Timing>;
  completionInProcess: Timing;
  completionOverJsonRpc: Timing;
  server: { startupMs: number; firstDiagnostics10kMs: number; rssMb: number };
}

const runsFor = (lines: number) => (lines <= 100 ? 200 : lines <= 10_000 ? 30 : 5);

async function onloadDiagnostics(profile: (lines: number) => string): Promise<LanguageFigures['onloadDiagnostics']> {
  const service = new OnloadLanguageService();
  const out: LanguageFigures['onloadDiagnostics'] = {};
  for (const lines of sizes) {
    const text = profile(lines);
    let count = 0;
    const timing = await time(runsFor(lines), async (i) => {
      const document = TextDocument.create(`file:///bench/p${lines}.opf`, 'onload-profile', i + 10, text);
      count = (await service.diagnostics(document, noFiles, neverCancelled)).length;
    });
    out[lines] = { ...timing, diagnostics: count };
  }
  return out;
}

/** A JSON Schema stating the same facts the Onload catalog checks: names, types, ranges, enum names. */
function optionsSchema(): object {
  const catalog = JSON.parse(readFileSync('server/src/onload/data/catalog.json', 'utf8')) as {
    options: { name: string; type: string; min?: number; max?: number; enumValues?: Record<string, string> }[];
  };
  const properties: Record<string, object> = {};
  for (const option of catalog.options) {
    const numeric = {
      type: 'integer',
      ...(option.min !== undefined && { minimum: option.min }),
      ...(option.max !== undefined && { maximum: option.max }),
    };
    const names = option.enumValues ? Object.values(option.enumValues).filter(Boolean) : [];
    properties[option.name] =
      option.type === 'string'
        ? { type: 'string' }
        : names.length > 0
          ? { anyOf: [numeric, { type: 'string', enum: names }] }
          : numeric;
  }
  return {
    type: 'array',
    items: { type: 'object', properties, additionalProperties: false, minProperties: 1, maxProperties: 1 },
  };
}

async function yamlLanguageServer(): Promise<LanguageFigures['yamlLanguageServer']> {
  const schema = optionsSchema();
  const service = getLanguageService({
    schemaRequestService: async () => JSON.stringify(schema),
    workspaceContext: { resolveRelativePath: (path: string) => path },
  });
  service.configure({
    validate: true,
    schemas: [{ uri: 'file:///bench/onload-options.schema.json', fileMatch: ['*.yaml'], schema }],
  });
  const out: LanguageFigures['yamlLanguageServer'] = {};
  for (const lines of sizes) {
    const text = equivalentYaml(lines);
    let count = 0;
    const timing = await time(Math.max(3, Math.floor(runsFor(lines) / 3)), async (i) => {
      const document = TextDocument.create(`file:///bench/p${lines}.yaml`, 'yaml', i + 10, text);
      count = (await service.doValidation(document, false)).length;
    });
    out[lines] = { ...timing, diagnostics: count };
  }
  return out;
}

async function ycsbDiagnostics(): Promise<LanguageFigures['ycsbDiagnostics']> {
  const service = new YcsbLanguageService();
  const base = readFileSync('examples/workloads/workloada', 'utf8').split('\n');
  const out: LanguageFigures['ycsbDiagnostics'] = {};
  for (const lines of sizes) {
    const body: string[] = [];
    for (let i = 0; body.length < lines; i++) body.push(i < base.length ? base[i] : `# filler ${i}`);
    const text = body.join('\n');
    out[lines] = await time(runsFor(lines), async (i) => {
      const document = TextDocument.create(`file:///bench/workloads/workload${lines}`, 'ycsb-workload', i + 10, text);
      await service.diagnostics(document, noFiles, neverCancelled);
    });
  }
  return out;
}

/** Completion at an option name and at a value, on a 1,000-line profile. */
function completionPositions(text: string): { line: number; character: number }[] {
  const lines = text.split('\n');
  const positions: { line: number; character: number }[] = [];
  for (let line = 1; line < lines.length && positions.length < 400; line += 7) {
    if (!lines[line].startsWith('onload_set ')) continue;
    positions.push({ line, character: 'onload_set EF_'.length });
    positions.push({ line, character: lines[line].length });
  }
  return positions;
}

async function completion(): Promise<
  Pick<LanguageFigures, 'completionInProcess' | 'completionOverJsonRpc' | 'server'>
> {
  const text = onloadProfile(1_000);
  const positions = completionPositions(text);
  const service = new OnloadLanguageService();
  const document = TextDocument.create('file:///bench/completion.opf', 'onload-profile', 1, text);
  const completionInProcess = await time(
    positions.length,
    (i) => service.completion(document, positions[Math.max(0, i)], noFiles, neverCancelled),
    20,
  );

  const spawnedAt = performance.now();
  // Like VS Code: descriptions are fetched when an item is focused, and a list's shared edit range
  // is sent once.
  const client = await startTestClient([], { resolveDocumentation: true, itemDefaults: true });
  const startupMs = performance.now() - spawnedAt;
  try {
    const uri = 'file:///bench/completion.opf';
    await client.open(uri, 'onload-profile', text);
    await client.diagnostics(uri);
    const completionOverJsonRpc = await time(
      positions.length,
      (i) => client.completion(uri, positions[Math.max(0, i)]),
      20,
    );

    const bigUri = 'file:///bench/big.opf';
    const openedAt = performance.now();
    await client.open(bigUri, 'onload-profile', onloadProfile(10_000));
    await client.diagnostics(bigUri);
    const firstDiagnostics10kMs = performance.now() - openedAt;
    const rssMb = serverRssMb(client.pid);
    return {
      completionInProcess,
      completionOverJsonRpc,
      server: { startupMs: round(startupMs), firstDiagnostics10kMs: round(firstDiagnostics10kMs), rssMb },
    };
  } finally {
    await client.stop();
  }
}

function serverRssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return round(kb / 1024, 1);
}

export async function benchLanguage(): Promise<LanguageFigures> {
  const onload = await onloadDiagnostics(onloadProfile);
  const onloadTypical = await onloadDiagnostics(typicalOnloadProfile);
  const yaml = await yamlLanguageServer();
  const speedup: Record<string, number> = {};
  for (const lines of sizes) speedup[lines] = round(yaml[lines].medianMs / onload[lines].medianMs, 1);
  const ycsb = await ycsbDiagnostics();
  return {
    onloadDiagnostics: onload,
    onloadTypicalDiagnostics: onloadTypical,
    yamlLanguageServer: yaml,
    speedup,
    ycsbDiagnostics: ycsb,
    ...(await completion()),
  };
}

export function formatLanguageFigures(figures: LanguageFigures): string {
  const ms = (timing: Timing) => `median ${round(timing.medianMs)} ms, p99 ${round(timing.p99Ms)} ms`;
  const rows = sizes.map((lines) => {
    const ours = figures.onloadDiagnostics[lines];
    const theirs = figures.yamlLanguageServer[lines];
    return `  ${String(lines).padStart(7)} lines  onload-bench ${ms(ours).padEnd(36)} yaml-language-server ${ms(theirs).padEnd(36)} ${figures.speedup[lines]}x`;
  });
  return [
    'Language: full diagnostics of a profile shaped like real ones (target: 10,000 lines < 20 ms)',
    ...sizes.map(
      (lines) =>
        `  ${String(lines).padStart(7)} lines  ${ms(figures.onloadTypicalDiagnostics[lines])}, ${figures.onloadTypicalDiagnostics[lines].diagnostics} diagnostics`,
    ),
    'Language: worst case, a diagnostic on nearly every line, vs yaml-language-server on the equivalent YAML (target >= 10x)',
    ...rows,
    'Language: YCSB workload diagnostics',
    ...sizes.map((lines) => `  ${String(lines).padStart(7)} lines  ${ms(figures.ycsbDiagnostics[lines])}`),
    'Language: completion on a 1,000-line profile (target p99 < 5 ms)',
    `  in process      ${ms(figures.completionInProcess)}`,
    `  over JSON-RPC   ${ms(figures.completionOverJsonRpc)}`,
    `Language server: start-up ${figures.server.startupMs} ms, first diagnostics of 10,000 lines ${figures.server.firstDiagnostics10kMs} ms, RSS ${figures.server.rssMb} MB`,
  ].join('\n');
}

if (require.main === module) {
  benchLanguage().then(
    (figures) =>
      console.log(process.argv.includes('--json') ? JSON.stringify(figures, null, 2) : formatLanguageFigures(figures)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
