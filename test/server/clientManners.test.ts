// The capability matrix over JSON-RPC: what the server answers depends on what the client
// declared. "Minimal" is a client that declares nothing (the LSP defaults: plain text, no
// snippets, no code-action literals, flat symbols, no tags), as eglot without its optional
// packages or a small Vim plugin is; the default test client declares what VS Code declares.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  Command,
  CompletionItem,
  Hover,
  MarkupContent,
  SymbolInformation,
  WorkspaceEdit,
} from 'vscode-languageserver-types';
import { fileUri, startTestClient, type TestClient } from '../support/lspClient';

const profile = 'onload_set EF_CLUSTER_IGNORE 1\nonload_set EF_POLL_USEC 5\nonload_set EF_POLL_USEC 6\nonl\n';
const workload = 'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=10\nrecordcount=20\n';

let folder: string;
let rich: TestClient;
let minimal: TestClient;
const applied: WorkspaceEdit[] = [];

before(async () => {
  folder = mkdtempSync(join(tmpdir(), 'manners-'));
  mkdirSync(join(folder, 'workloads'));
  rich = await startTestClient([folder]);
  minimal = await startTestClient([folder], {
    capabilities: {},
    onRequest: {
      'workspace/applyEdit': (params) => {
        applied.push((params as { edit: WorkspaceEdit }).edit);
        return { applied: true };
      },
    },
  });
  for (const client of [rich, minimal]) {
    await client.open(uri('tuning.opf'), 'onload-profile', profile);
    await client.open(uri('workloads/workloadx'), 'ycsb-workload', workload);
  }
});

after(async () => {
  await rich.stop();
  await minimal.stop();
  rmSync(folder, { recursive: true, force: true });
});

const uri = (name: string) => fileUri(join(folder, name));
const markup = (value: Hover['contents'] | CompletionItem['documentation']) => value as MarkupContent;

test('completion: snippets only for a client with snippetSupport, a plain word and a space otherwise', async () => {
  const plain = await minimal.completion(uri('tuning.opf'), { line: 3, character: 3 });
  const set = plain.find((item) => item.label === 'onload_set')!;
  assert.equal(set.insertTextFormat ?? 1, 1);
  assert.equal(set.textEdit?.newText, 'onload_set ');
  assert.ok(
    plain.every((item) => item.insertTextFormat !== 2 && !/\$\{?\d/.test(item.textEdit?.newText ?? '')),
    'no snippet syntax anywhere',
  );
  const snippets = await rich.completion(uri('tuning.opf'), { line: 3, character: 3 });
  assert.equal(snippets.find((item) => item.label === 'onload_set')!.textEdit?.newText, 'onload_set ${1:EF_}');
});

/** Any snippet syntax a client without snippets would insert literally: `$1`, `${1}`, `${1:EF_}`, `${1|a,b|}`. */
const snippetSyntax = /\$(\d|\{\d)/;
const inserted = (item: CompletionItem) => item.textEdit?.newText ?? item.insertText ?? item.label;

test('completion without snippetSupport: plain text and no placeholder anywhere, in both languages', async () => {
  const positions: [string, { line: number; character: number }][] = [
    ['tuning.opf', { line: 3, character: 3 }], // directives
    ['tuning.opf', { line: 1, character: 18 }], // option names
    ['tuning.opf', { line: 1, character: 24 }], // values
    ['workloads/workloadx', { line: 3, character: 0 }], // keys (key=default)
    ['workloads/workloadx', { line: 0, character: 20 }], // class names
  ];
  for (const [name, position] of positions) {
    const items = await minimal.completion(uri(name), position);
    assert.ok(items.length > 0, `${name} ${JSON.stringify(position)}`);
    for (const item of items) {
      assert.notEqual(item.insertTextFormat, 2, item.label);
      assert.doesNotMatch(inserted(item), snippetSyntax, item.label);
    }
  }
  const log = (await minimal.completion(uri('tuning.opf'), { line: 3, character: 3 })).find(
    (item) => item.label === 'log',
  )!;
  assert.equal(log.textEdit?.newText, 'log ', 'no empty quotes to step out of');
  const key = (await minimal.completion(uri('workloads/workloadx'), { line: 3, character: 0 })).find(
    (item) => item.label === 'operationcount',
  )!;
  assert.match(inserted(key), /^operationcount=\d*$/);
});

test('hover and completion documentation: Markdown for Markdown clients, clean plain text otherwise (both languages)', async () => {
  const markdown = markup((await rich.hover(uri('tuning.opf'), { line: 1, character: 14 }))!.contents);
  assert.equal(markdown.kind, 'markdown');
  assert.match(markdown.value, /\*\*EF_POLL_USEC\*\*/);
  const text = markup((await minimal.hover(uri('tuning.opf'), { line: 1, character: 14 }))!.contents);
  assert.equal(text.kind, 'plaintext');
  assert.match(text.value, /^EF_POLL_USEC — /);
  assert.doesNotMatch(text.value, /\*\*|`|^---$/m);
  assert.match(text.value, /Effective value here: 5/);

  const ycsb = markup((await minimal.hover(uri('workloads/workloadx'), { line: 1, character: 3 }))!.contents);
  assert.equal(ycsb.kind, 'plaintext');
  assert.match(ycsb.value, /^recordcount/);
  assert.doesNotMatch(ycsb.value, /\*\*|`|^---$/m);

  const options = await minimal.completion(uri('tuning.opf'), { line: 1, character: 18 });
  const documentation = markup(options.find((item) => item.label === 'EF_POLL_USEC')!.documentation);
  assert.equal(documentation.kind, 'plaintext');
  assert.doesNotMatch(documentation.value, /\*\*|`/);
  const keys = await minimal.completion(uri('workloads/workloadx'), { line: 3, character: 0 });
  assert.equal(markup(keys.find((item) => item.label === 'operationcount')!.documentation).kind, 'plaintext');
});

/** Markdown marks a plain-text client would show as they are. */
const markdownMarks = /\*\*|`|^\s*---\s*$|(^|\s)[*_]\S[^\n]*?\S[*_](\s|$)|\\[_*`]/m;

test('plain-text clients: no Markdown mark in any hover or documentation, also on completionItem/resolve (both languages)', async () => {
  const resolving = await startTestClient([folder], {
    capabilities: {
      textDocument: {
        completion: {
          completionItem: { documentationFormat: ['plaintext'], resolveSupport: { properties: ['documentation'] } },
        },
      },
    },
  });
  try {
    await resolving.open(uri('tuning.opf'), 'onload-profile', profile);
    await resolving.open(uri('workloads/workloadx'), 'ycsb-workload', workload);
    const cases: [string, { line: number; character: number }, string][] = [
      ['tuning.opf', { line: 1, character: 18 }, 'EF_POLL_USEC'],
      ['tuning.opf', { line: 0, character: 18 }, 'EF_CLUSTER_IGNORE'],
      ['workloads/workloadx', { line: 3, character: 0 }, 'operationcount'],
      ['workloads/workloadx', { line: 3, character: 0 }, 'requestdistribution'],
    ];
    for (const [name, position, label] of cases) {
      const item = (await resolving.completion(uri(name), position)).find((candidate) => candidate.label === label)!;
      assert.equal(item.documentation, undefined, `${label}: documentation waits for resolve`);
      const resolved = markup((await resolving.resolveCompletion(item)).documentation);
      assert.equal(resolved.kind, 'plaintext', label);
      assert.ok(resolved.value.startsWith(label), resolved.value);
      assert.doesNotMatch(resolved.value, markdownMarks, label);
    }
  } finally {
    await resolving.stop();
  }
  // Hovers of every kind: an option, a deprecated one, an overridden workload key (italic note), a proportion (mix).
  const hovers: [string, { line: number; character: number }][] = [
    ['tuning.opf', { line: 1, character: 14 }],
    ['tuning.opf', { line: 0, character: 14 }],
    ['workloads/workloadx', { line: 1, character: 3 }],
    ['workloads/workloadx', { line: 0, character: 3 }],
  ];
  for (const [name, position] of hovers) {
    const text = markup((await minimal.hover(uri(name), position))!.contents);
    assert.equal(text.kind, 'plaintext');
    assert.doesNotMatch(text.value, markdownMarks, text.value);
  }
  const overridden = markup(
    (await minimal.hover(uri('workloads/workloadx'), { line: 1, character: 3 }))!.contents,
  ).value;
  assert.match(overridden, /^Overridden by a later line: YCSB ignores this one\.$/m);
});

test('hover and documentation formats are chosen separately (the capability matrix)', async () => {
  const hoverOnlyMarkdown = await startTestClient([folder], {
    capabilities: {
      textDocument: {
        hover: { contentFormat: ['markdown'] },
        completion: { completionItem: { snippetSupport: true, documentationFormat: ['plaintext'] } },
        publishDiagnostics: { tagSupport: { valueSet: [2] } },
      },
    },
  });
  const documentationOnlyMarkdown = await startTestClient([folder], {
    capabilities: {
      textDocument: {
        hover: { contentFormat: ['plaintext'] },
        completion: { completionItem: { documentationFormat: ['markdown', 'plaintext'] } },
      },
    },
  });
  try {
    for (const [client, hoverKind, documentationKind, directive] of [
      [hoverOnlyMarkdown, 'markdown', 'plaintext', 'onload_set ${1:EF_}'],
      [documentationOnlyMarkdown, 'plaintext', 'markdown', 'onload_set '],
    ] as const) {
      await client.open(uri('tuning.opf'), 'onload-profile', profile);
      await client.open(uri('workloads/workloadx'), 'ycsb-workload', workload);
      assert.equal(
        markup((await client.hover(uri('tuning.opf'), { line: 1, character: 14 }))!.contents).kind,
        hoverKind,
      );
      assert.equal(
        markup((await client.hover(uri('workloads/workloadx'), { line: 1, character: 3 }))!.contents).kind,
        hoverKind,
      );
      const option = (await client.completion(uri('tuning.opf'), { line: 1, character: 18 })).find(
        (item) => item.label === 'EF_POLL_USEC',
      )!;
      assert.equal(markup(option.documentation).kind, documentationKind);
      const key = (await client.completion(uri('workloads/workloadx'), { line: 3, character: 0 })).find(
        (item) => item.label === 'operationcount',
      )!;
      assert.equal(markup(key.documentation).kind, documentationKind);
      const set = (await client.completion(uri('tuning.opf'), { line: 3, character: 3 })).find(
        (item) => item.label === 'onload_set',
      )!;
      assert.equal(set.textEdit?.newText, directive);
      assert.equal(set.insertTextFormat, directive.includes('$') ? 2 : 1);
    }
    // Tags the client named, and only those: Deprecated (2) stays, Unnecessary (1) goes.
    const tagged = await hoverOnlyMarkdown.diagnostics(uri('tuning.opf'));
    assert.deepEqual(tagged.find((d) => d.code === 'deprecated-option')?.tags, [2]);
    const ineffective = tagged.find((d) => d.code === 'ineffective-assignment');
    assert.ok(ineffective && !('tags' in ineffective));
  } finally {
    await hoverOnlyMarkdown.stop();
    await documentationOnlyMarkdown.stop();
  }
});

test('diagnostic and completion tags only for clients that declared them', async () => {
  const tagged = await rich.diagnostics(uri('tuning.opf'));
  assert.deepEqual(tagged.find((d) => d.code === 'deprecated-option')?.tags, [2]);
  assert.deepEqual(tagged.find((d) => d.code === 'ineffective-assignment')?.tags, [1]);
  const untagged = await minimal.diagnostics(uri('tuning.opf'));
  assert.ok(untagged.length >= 2);
  assert.ok(untagged.every((d) => d.tags === undefined));
  assert.ok((await minimal.diagnostics(uri('workloads/workloadx'))).every((d) => d.tags === undefined));
  const options = await minimal.completion(uri('tuning.opf'), { line: 0, character: 18 });
  assert.equal(options.find((item) => item.label === 'EF_CLUSTER_IGNORE')!.tags, undefined);
  const richOptions = await rich.completion(uri('tuning.opf'), { line: 0, character: 18 });
  assert.deepEqual(richOptions.find((item) => item.label === 'EF_CLUSTER_IGNORE')!.tags, [1]);
});

test('code actions: literals for clients that take them, commands that apply the edit through workspace/applyEdit otherwise', async () => {
  const diagnostics = await minimal.diagnostics(uri('tuning.opf'));
  const deprecated = diagnostics.find((d) => d.code === 'deprecated-option')!;
  const commands = (await minimal.codeActions(uri('tuning.opf'), deprecated.range, [
    deprecated,
  ])) as unknown as Command[];
  assert.deepEqual(
    commands.map((command) => [command.title, command.command]),
    [
      ['Replace with onload_set EF_CLUSTER_SIZE 0', 'onloadBench.applyFix'],
      ["Disable 'deprecated-option' for this line", 'onloadBench.applyFix'],
    ],
  );
  assert.deepEqual(minimal.initialized.capabilities.executeCommandProvider, { commands: ['onloadBench.applyFix'] });
  await minimal.connection.sendRequest('workspace/executeCommand', {
    command: commands[0]!.command,
    arguments: commands[0]!.arguments,
  });
  assert.deepEqual(applied.at(-1), {
    changes: {
      [uri('tuning.opf')]: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 30 } },
          newText: 'onload_set EF_CLUSTER_SIZE 0',
        },
      ],
    },
  });
  const literals = await rich.codeActions(uri('tuning.opf'), deprecated.range, [deprecated]);
  assert.equal(literals[0]!.kind, 'quickfix');
  assert.deepEqual(literals[0]!.edit, applied.at(-1), 'the same edit either way');
  assert.equal(rich.initialized.capabilities.executeCommandProvider, undefined);
  assert.deepEqual(rich.initialized.capabilities.codeActionProvider, { codeActionKinds: ['quickfix'] });
  assert.equal(minimal.initialized.capabilities.codeActionProvider, true);
  // Workloads too: commands without literals.
  const workloadDiagnostics = await minimal.diagnostics(uri('workloads/workloadx'));
  const duplicate = workloadDiagnostics.find((d) => d.code === 'duplicate-key')!;
  const workloadCommands = (await minimal.codeActions(uri('workloads/workloadx'), duplicate.range, [
    duplicate,
  ])) as unknown as Command[];
  assert.ok(workloadCommands.length > 0);
  assert.ok(
    workloadCommands.every(
      (command) => command.command === 'onloadBench.applyFix' && !('kind' in command) && !('edit' in command),
    ),
    JSON.stringify(workloadCommands),
  );
});

test('document symbols: a hierarchy for clients that declared it, SymbolInformation[] otherwise', async () => {
  const flat = (await minimal.documentSymbols(uri('workloads/workloadx'))) as unknown as SymbolInformation[];
  assert.ok(flat.length > 0);
  assert.ok(flat.every((symbol) => symbol.location?.uri === uri('workloads/workloadx') && !('children' in symbol)));
  const recordcount = flat.find((symbol) => symbol.name === 'recordcount');
  assert.equal(recordcount?.containerName, 'Client');
  const tree = await rich.documentSymbols(uri('workloads/workloadx'));
  assert.ok(tree.some((symbol) => (symbol.children?.length ?? 0) > 0));
});

test('a client that opens our files under its own language id still gets every feature (by file name)', async () => {
  const asShell = uri('as-shell.opf');
  await minimal.open(asShell, 'sh', 'onload_set EF_POLL_USC 1\n');
  const [unknown] = await minimal.diagnostics(asShell);
  assert.equal(unknown?.code, 'unknown-option');
  assert.deepEqual(
    ((await minimal.codeActions(asShell, unknown!.range, [unknown!])) as unknown as Command[]).map(
      (command) => command.title,
    )[0],
    'Change to EF_POLL_USEC',
  );
  assert.ok((await minimal.completion(asShell, { line: 0, character: 3 })).some((item) => item.label === 'onload_set'));
  const dotYcsb = uri('load.ycsb');
  await minimal.open(dotYcsb, 'properties', 'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=1O\n');
  assert.deepEqual(
    (await minimal.diagnostics(dotYcsb)).map((d) => d.code),
    ['invalid-integer'],
  );
  const asProperties = uri('workloads/workloadz');
  await minimal.open(asProperties, 'jproperties', 'recordcount=x\n');
  assert.deepEqual((await minimal.diagnostics(asProperties)).map((d) => d.code).sort(), [
    'invalid-integer',
    'missing-workload',
  ]);
  const fragment = uri('part.opf-fragment');
  await minimal.open(fragment, 'bash', 'onload_set EF_POLL_USEC 1\n');
  assert.ok((await minimal.hover(fragment, { line: 0, character: 14 })) !== null);
  // A real shell script is not ours: no answers.
  const script = uri('run.sh');
  await minimal.open(script, 'sh', 'onload_set EF_POLL_USC 1\n');
  assert.equal(await minimal.hover(script, { line: 0, character: 14 }), null);
  assert.deepEqual(await minimal.documentSymbols(script), []);
});
