// Which way imports may point (ARCHITECTURE.md, "Folders" and "Engine folders"), checked by
// dependency-cruiser in `npm test` (test/architecture/importRules.test.ts) and by hand with
//   npx depcruise --config .dependency-cruiser.cjs engine client server cli media/src
// A violation names the rule. Type-only imports count: a circle of types is still a circle.

// The engine's folders, each with the folders it may import. `contracts` are model.ts, errors.ts
// and events.ts (what every part speaks); `options.ts` is what the edges pass in; the entries
// (`index.ts` to run, `report/index.ts` to read results) may import anything. Nothing may import a
// folder above it.
const engineMayImport = {
  remote: ['contracts'],
  plan: ['contracts', 'remote'],
  ycsb: ['contracts', 'remote', 'plan'],
  server: ['contracts', 'remote', 'plan'],
  couchbase: ['contracts', 'remote', 'plan', 'server', 'ycsb'],
  evidence: ['contracts', 'remote', 'plan', 'server', 'ycsb'],
  results: ['contracts', 'remote'],
  // report/evidence/ shapes what evidence/ collected for the report and the panel, so it is report's
  report: ['contracts', 'ycsb', 'evidence'],
  options: ['contracts', 'remote', 'plan'],
  sweep: ['contracts', 'options', 'remote', 'plan', 'ycsb', 'server', 'couchbase', 'evidence', 'results', 'report'],
};

const enginePath = {
  contracts: '^engine/src/(model|errors|events)\\.ts$',
  options: '^engine/src/options\\.ts$',
  // the edges' doors into the engine: running (index.ts) and reading results (report/index.ts)
  entries: '^engine/src/(report/)?index\\.ts$',
};
const pathOf = (folder) => enginePath[folder] ?? `^engine/src/${folder}/`;

const engineRules = Object.entries(engineMayImport).map(([folder, allowed]) => ({
  name: `engine-${folder}-imports-down`,
  comment: `engine/src ${folder} may import only ${allowed.join(', ')} (ARCHITECTURE.md, Engine folders)`,
  severity: 'error',
  from: { path: pathOf(folder), pathNot: enginePath.entries },
  to: { path: '^engine/src/', pathNot: [pathOf(folder), ...allowed.map(pathOf)] },
}));

// The language services: pure, never the LSP connection or a sibling language.
const languageServices = '^server/src/(common|onload|ycsb)/|^server/src/languages\\.ts$';
const lspConnection =
  '^server/src/(server|main|customRequests|completionList|deferredDocumentation)\\.ts$|^server/src/adapter/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'files that import each other in a loop',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...engineRules,
    {
      name: 'engine-contracts-import-only-model',
      comment: 'model.ts imports nothing; errors.ts and events.ts only model.ts',
      severity: 'error',
      from: { path: enginePath.contracts },
      to: { path: '^engine/src/', pathNot: '^engine/src/model\\.ts$' },
    },
    {
      name: 'nothing-imports-the-engine-entry',
      comment: "the entries are the engine's top: nothing inside the engine imports them",
      severity: 'error',
      from: { path: '^engine/src/' },
      to: { path: enginePath.entries },
    },
    {
      // One public door: the extension (its engine process too) and the CLI reach the engine only
      // through its entries, types included, so a file inside it can move or change without them.
      name: 'edges-use-the-engine-entries',
      comment: 'client/ and cli/ import engine/src/index.ts (to run) and engine/src/report/index.ts (to read) only',
      severity: 'error',
      from: { path: '^(client|cli)/' },
      to: { path: '^engine/', pathNot: enginePath.entries },
    },
    {
      // The extension host loads the reading entry at activation (the panel, the Runs view, the task
      // terminal), so nothing behind it may pull in the plan, its language services or the sweep.
      name: 'engine-read-entry-stays-light',
      comment: 'engine/src/report/index.ts never reaches sweep/, plan/, server/, couchbase/ or the language services',
      severity: 'error',
      from: { path: '^engine/src/report/index\\.ts$' },
      to: {
        path: [
          '^engine/src/(sweep|plan|server|couchbase)/',
          '^engine/src/(index|options)\\.ts$',
          '^server/src/(onload|ycsb)/',
          '^node_modules/couchbase/',
        ],
        reachable: true,
      },
    },
    {
      // ...and loads the running entry, with the whole engine behind it, only on first use.
      name: 'extension-loads-the-run-entry-on-use',
      comment: 'the extension host imports engine/src/index.ts dynamically or for types only, never at activation',
      severity: 'error',
      from: { path: '^client/src/', pathNot: '^client/src/engineHost/' },
      to: { path: '^engine/src/index\\.ts$', dependencyTypesNot: ['type-only', 'dynamic-import'] },
    },
    {
      name: 'engine-stays-plain-node',
      comment: 'the engine never imports vscode, the client, the CLI, the webview or the LSP connection',
      severity: 'error',
      from: { path: '^engine/src/' },
      to: {
        path: [
          '^client/',
          '^cli/',
          '^media/',
          lspConnection,
          '^node_modules/(vscode|vscode-languageserver|vscode-languageclient)/',
        ],
      },
    },
    {
      name: 'language-services-are-pure',
      comment: 'the language services never import the LSP connection, the engine, the client or vscode',
      severity: 'error',
      from: { path: languageServices },
      to: {
        path: [
          '^server/src/(server|main|customRequests|completionList|deferredDocumentation)\\.ts$',
          '^server/src/adapter/',
          '^engine/',
          '^client/',
          '^cli/',
          '^node_modules/vscode-languageserver/',
          '^node_modules/vscode/',
        ],
      },
    },
    {
      name: 'language-common-is-shared',
      comment: 'server/src/common knows neither language',
      severity: 'error',
      from: { path: '^server/src/common/' },
      to: { path: '^server/src/(onload|ycsb)/' },
    },
    {
      name: 'languages-apart',
      comment: 'Onload profiles and YCSB workloads do not import each other',
      severity: 'error',
      from: { path: '^server/src/onload/' },
      to: { path: '^server/src/ycsb/' },
    },
    {
      name: 'languages-apart-ycsb',
      comment: 'Onload profiles and YCSB workloads do not import each other',
      severity: 'error',
      from: { path: '^server/src/ycsb/' },
      to: { path: '^server/src/onload/' },
    },
    {
      name: 'protocol-imports-nothing',
      comment: 'server/src/protocol.ts is shared with the client',
      severity: 'error',
      from: { path: '^server/src/protocol\\.ts$' },
      to: { path: '^(server|engine|client)/' },
    },
    {
      name: 'cli-no-editor',
      comment: 'the command line never imports vscode, the client or the LSP connection',
      severity: 'error',
      from: { path: '^cli/src/' },
      to: { path: ['^client/', '^media/', lspConnection, '^node_modules/vscode-languageclient/'] },
    },
    {
      name: 'engine-host-no-vscode',
      comment: 'the engine process runs in plain Node',
      severity: 'error',
      from: { path: '^client/src/engineHost/' },
      to: {
        path: ['^node_modules/vscode/', '^node_modules/vscode-languageclient/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'client-not-the-connection',
      comment: 'the extension talks to the language server over LSP, never by importing its connection',
      severity: 'error',
      from: { path: '^client/src/' },
      to: {
        path: [
          '^server/src/(server|main|customRequests|completionList|deferredDocumentation)\\.ts$',
          '^cli/',
          '^media/',
        ],
      },
    },
    {
      name: 'webview-types-only',
      comment:
        'the webview bundle takes only types from the engine model and the panel protocol, and the words every view ' +
        'shares (engine/src/report/names.ts: how a cell and a duration are written)',
      severity: 'error',
      from: { path: '^media/src/' },
      to: {
        path: '^(engine|client|server|cli)/',
        pathNot: '^engine/src/report/names\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'webview-contracts-only',
      comment:
        'the webview may know engine/src/model.ts, client/src/panel/protocol.ts and engine/src/report/names.ts only',
      severity: 'error',
      from: { path: '^media/src/' },
      to: {
        path: '^(engine|client|server|cli)/',
        pathNot: '^engine/src/model\\.ts$|^client/src/panel/protocol\\.ts$|^engine/src/report/names\\.ts$',
      },
    },
    {
      name: 'shared-names-stay-pure',
      comment: 'names.ts goes into the webview bundle: it may take types, never code, from anywhere',
      severity: 'error',
      from: { path: '^engine/src/report/names\\.ts$' },
      to: { dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
