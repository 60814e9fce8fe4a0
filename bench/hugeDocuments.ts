// `npm run bench` (huge documents, issue 11 item 7): the bundled server over JSON-RPC with a 50 MB
// profile and a 50 MB workload open, each in a fresh server, reporting the server's peak resident
// memory (VmHWM) and the time to the first diagnostics. Before the bounds (documentLimits.ts) a
// 50 MB profile made a 3.4 GB process and a RangeError; now analysis stops at 4 MiB with a notice
// and at most 1,000 diagnostics plus one summary are published.
//   npm run bench -- --only huge   (HUGE_MB=8 for a quicker look)
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startTestClient } from '../test/support/lspClient';
import { round } from './stats';

export interface HugeDocumentFigures {
  [name: string]: {
    megabytes: number;
    peakRssMb: number;
    firstDiagnosticsMs: number;
    diagnostics: number;
    codes: string[];
  };
}

const target = Number(process.env.HUGE_MB ?? 50) * 1024 * 1024;
/** One valid line repeated: every later line re-sets the option (a warning a line), as in the reported case. */
const documents = [
  {
    name: 'profile',
    uri: 'file:///bench/huge.opf',
    languageId: 'onload-profile',
    line: () => `onload_set EF_POLL_USEC 5 # ${'x'.repeat(70)}\n`,
  },
  {
    name: 'workload',
    uri: 'file:///bench/huge.properties',
    languageId: 'ycsb-workload',
    line: () => `fieldlength=100 # ${'x'.repeat(70)}\n`,
  },
];

function text(line: (index: number) => string): string {
  const parts: string[] = [];
  let size = 0;
  for (let index = 0; size < target; index++) {
    const next = line(index);
    parts.push(next);
    size += next.length;
  }
  return parts.join('');
}

function peakRssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return round(kb / 1024, 1);
}

export async function benchHugeDocuments(): Promise<HugeDocumentFigures> {
  const out: HugeDocumentFigures = {};
  for (const document of documents) {
    const content = text(document.line);
    const client = await startTestClient();
    try {
      const started = performance.now();
      await client.open(document.uri, document.languageId, content);
      const diagnostics = await client.diagnostics(document.uri);
      out[document.name] = {
        megabytes: round(content.length / (1024 * 1024), 1),
        peakRssMb: peakRssMb(client.pid),
        firstDiagnosticsMs: round(performance.now() - started),
        diagnostics: diagnostics.length,
        codes: [
          ...new Set(
            diagnostics
              .map((diagnostic) => String(diagnostic.code))
              .filter((code) => code === 'too-many-problems' || code === 'document-too-large'),
          ),
        ],
      };
    } finally {
      await client.stop();
    }
  }
  return out;
}

export function formatHugeDocumentFigures(figures: HugeDocumentFigures): string {
  return [
    'Huge documents over JSON-RPC (one fresh server each; analysis bounded at 4 MiB, 1,000 diagnostics + 1 summary)',
    ...Object.entries(figures).map(
      ([name, entry]) =>
        `  ${name.padEnd(9)} ${entry.megabytes} MB: peak RSS ${entry.peakRssMb} MB, first diagnostics ${entry.firstDiagnosticsMs} ms, ${entry.diagnostics} diagnostics (${entry.codes.join(', ')})`,
    ),
  ].join('\n');
}
