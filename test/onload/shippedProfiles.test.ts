// Every profile Onload ships validates with no errors; the only warnings are true ones (the
// deprecated EF_CLUSTER_IGNORE). Runs over JSON-RPC with the shipped profiles as the workspace,
// so their imports (throughput, wan-traffic, *-parse-config...) are followed as files.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { fileUri, type TestClient } from '../support/lspClient';
import { messageOf, shippedProfilesFolder, startOnloadClient } from './support';

let client: TestClient;
before(async () => {
  client = await startOnloadClient([shippedProfilesFolder]);
});
after(async () => {
  await client.stop();
});

const profiles = readdirSync(shippedProfilesFolder)
  .filter((name) => /\.opf(-fragment)?$/.test(name))
  .sort();

test('all 24 shipped profiles are present as fixtures', () => {
  assert.equal(profiles.length, 24);
});

test('shipped profiles: no errors, and warnings only for the deprecated EF_CLUSTER_IGNORE', async () => {
  const warnings: string[] = [];
  for (const name of profiles) {
    const uri = fileUri(join(shippedProfilesFolder, name));
    await client.open(uri, 'onload-profile', readFileSync(join(shippedProfilesFolder, name), 'utf8'));
    const diagnostics: Diagnostic[] = await client.diagnostics(uri);
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error);
    assert.deepEqual(
      errors.map((diagnostic) => `${diagnostic.code}: ${diagnostic.message}`),
      [],
      name,
    );
    for (const diagnostic of diagnostics.filter((candidate) => candidate.severity === DiagnosticSeverity.Warning)) {
      warnings.push(`${name}:${diagnostic.range.start.line + 1} ${diagnostic.code}`);
      assert.equal(diagnostic.code, 'deprecated-option', `${name}: ${diagnostic.message}`);
      assert.match(messageOf(diagnostic), /^EF_CLUSTER_IGNORE is deprecated/);
    }
  }
  // The facts list exactly these users of EF_CLUSTER_IGNORE.
  assert.deepEqual(warnings, [
    'nettyio-balanced.opf:31 deprecated-option',
    'nettyio-performance.opf:19 deprecated-option',
    'node-js.opf:42 deprecated-option',
    'redis-balanced.opf:32 deprecated-option',
    'redis-performance.opf:20 deprecated-option',
  ]);
});
