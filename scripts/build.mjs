// Bundles every entry point with esbuild. Native and editor-provided modules stay external:
// `vscode` is given by the editor, `couchbase` ships its own native binary in node_modules.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** Node-side bundles: the extension host, the language server and the command-line tool. */
const nodeEntries = [
  { in: 'client/src/extension.ts', out: 'extension' },
  { in: 'server/src/main.ts', out: 'server' },
  { in: 'cli/src/main.ts', out: 'cli' },
  // The engine process the extension forks for a sweep (the Couchbase SDK cannot load in the extension host).
  { in: 'client/src/engineHost/main.ts', out: 'engineHost' },
  { in: 'test/e2e/integration/index.ts', out: 'test/index' },
].filter((entry) => existsSync(entry.in));

/** Browser-side bundle loaded by the results webview (Chart.js is bundled in, nothing remote). */
const webviewEntries = [{ in: 'media/src/panel.ts', out: 'panel' }].filter((entry) => existsSync(entry.in));

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'linked',
};

const contexts = [
  await esbuild.context({
    ...common,
    entryPoints: nodeEntries,
    outdir: 'dist',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode', 'couchbase', 'mocha'],
    // Prefer ES module builds: jsonc-parser's UMD `main` loads its parts with requires esbuild cannot follow.
    mainFields: ['module', 'main'],
  }),
];
if (webviewEntries.length > 0) {
  contexts.push(
    await esbuild.context({
      ...common,
      entryPoints: webviewEntries,
      outdir: 'dist/media',
      platform: 'browser',
      target: 'es2022',
      format: 'iife',
    }),
  );
}

if (watch) {
  await Promise.all(contexts.map((context) => context.watch()));
} else {
  await Promise.all(contexts.map((context) => context.rebuild()));
  await Promise.all(contexts.map((context) => context.dispose()));
}
