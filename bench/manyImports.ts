// `npm run bench` (many imports, issue 26 B13): a 2.7 MB profile of 100,000 `onload_import`s of
// names that exist nowhere, under the 4 MiB analysis bound. Reported: over JSON-RPC, the time to
// the first diagnostics and to the first hover in a fresh server, and a second hover; in process,
// how many times the disk is asked about a file per imported name during one check.
//   npm run bench -- --only imports   (IMPORTS=20000 for a quicker look)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { NodeWorkspaceFiles } from '../server/src/common/nodeWorkspaceFiles';
import { createOnloadLanguage } from '../server/src/onload/service';
import { fileUri, startTestClient } from '../test/support/lspClient';
import { round } from './stats';

export interface ManyImportsFigures {
  imports: number;
  megabytes: number;
  firstDiagnosticsMs: number;
  firstHoverMs: number;
  secondHoverMs: number;
  /** File system look-ups (stat, open, readdir) per imported name in one in-process check. */
  diskLookUpsPerName: number;
}

const count = Number(process.env.IMPORTS ?? 100_000);

function profileText(): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) lines.push(`onload_import absent-${String(index).padStart(5, '0')}`);
  lines.push('onload_set EF_POLL_USEC 5', '');
  return lines.join('\n');
}

/** Counts the fs/promises calls that ask the disk about a path while `work` runs. */
async function countingLookUps(work: () => Promise<unknown>): Promise<number> {
  // the module object itself (an import binding cannot be patched), so the engine's own calls are counted
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs/promises') as Record<string, unknown>;
  const names = ['stat', 'lstat', 'open', 'readFile', 'readdir', 'access'];
  const originals = new Map(names.map((name) => [name, fs[name]]));
  let calls = 0;
  for (const name of names) {
    const original = originals.get(name) as (...args: unknown[]) => unknown;
    fs[name] = (...args: unknown[]) => {
      calls++;
      return original(...args);
    };
  }
  try {
    await work();
  } finally {
    for (const [name, original] of originals) fs[name] = original;
  }
  return calls;
}

export async function benchManyImports(): Promise<ManyImportsFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-imports-'));
  const text = profileText();
  const path = join(folder, 'many.opf');
  writeFileSync(path, text);
  const uri = fileUri(path);
  try {
    const language = createOnloadLanguage({ profilePath: [join(folder, 'shared')] });
    const files = new NodeWorkspaceFiles(() => [fileUri(folder)]);
    const document = TextDocument.create(uri, 'onload-profile', 1, text);
    const lookUps = await countingLookUps(() =>
      language.diagnostics(document, files, { isCancellationRequested: false }),
    );

    const client = await startTestClient([folder], {
      initializationOptions: { onloadBench: { profilePath: [join(folder, 'shared')] } },
    });
    try {
      let started = performance.now();
      await client.open(uri, 'onload-profile', text);
      await client.diagnostics(uri, 1, 300_000);
      const firstDiagnosticsMs = performance.now() - started;
      await client.stop();
      const fresh = await startTestClient([folder], {
        initializationOptions: { onloadBench: { profilePath: [join(folder, 'shared')] } },
      });
      try {
        await fresh.connection.sendNotification('textDocument/didOpen', {
          textDocument: { uri, languageId: 'onload-profile', version: 1, text },
        });
        const at = { line: count, character: 14 };
        started = performance.now();
        await fresh.hover(uri, at);
        const firstHoverMs = performance.now() - started;
        started = performance.now();
        await fresh.hover(uri, at);
        const secondHoverMs = performance.now() - started;
        return {
          imports: count,
          megabytes: round(text.length / (1024 * 1024), 1),
          firstDiagnosticsMs: round(firstDiagnosticsMs),
          firstHoverMs: round(firstHoverMs),
          secondHoverMs: round(secondHoverMs),
          diskLookUpsPerName: round(lookUps / count, 2),
        };
      } finally {
        await fresh.stop();
      }
    } catch (error) {
      await client.stop().catch(() => undefined);
      throw error;
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function formatManyImportsFigures(figures: ManyImportsFigures): string {
  return [
    `Many unresolved imports over JSON-RPC (${figures.imports.toLocaleString('en-US')} onload_imports, ${figures.megabytes} MB, profilePath of one folder; fresh servers)`,
    `  first diagnostics ${figures.firstDiagnosticsMs} ms, first hover ${figures.firstHoverMs} ms, next hover ${figures.secondHoverMs} ms; disk look-ups per name in one check: ${figures.diskLookUpsPerName}`,
  ].join('\n');
}
