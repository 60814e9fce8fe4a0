// Diagnostics over real JSON-RPC: each rule of VALIDATION.md gives the right code, severity and
// range (asserted on the text the range covers), and a clean file gives nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { TestClient } from '../support/lspClient';
import { languageId, memoryUri, startClient, textAt } from './support';

let client: TestClient;
before(async () => {
  client = await startClient();
});
after(async () => {
  await client.stop();
});

const base = 'workload=site.ycsb.workloads.CoreWorkload\nrecordcount=1000\noperationcount=1000\n';

async function diagnose(text: string): Promise<Diagnostic[]> {
  const uri = memoryUri();
  await client.open(uri, languageId, text);
  const diagnostics = await client.diagnostics(uri, 1);
  await client.close(uri);
  return diagnostics;
}

/** Expect exactly one diagnostic with this code, covering `covered`, at this severity. */
async function expectOne(
  text: string,
  code: string,
  severity: DiagnosticSeverity,
  covered: string,
  messagePart?: RegExp,
) {
  const diagnostics = await diagnose(text);
  const matching = diagnostics.filter((d) => d.code === code);
  assert.equal(matching.length, 1, `${code} in ${JSON.stringify(diagnostics.map((d) => [d.code, d.message]))}`);
  const diagnostic = matching[0]!;
  const message = diagnostic.message as string;
  assert.equal(diagnostic.severity, severity, message);
  assert.equal(diagnostic.source, 'onload-bench');
  assert.equal(textAt(text, diagnostic.range), covered);
  if (messagePart) assert.match(message, messagePart);
  return diagnostic;
}

const { Error, Warning, Information } = DiagnosticSeverity;

test('a clean CoreWorkload file has no diagnostics', async () => {
  assert.deepEqual(
    await diagnose(`${base}readproportion=0.5\nupdateproportion=0.5\nrequestdistribution=zipfian\n`),
    [],
  );
});

test('errors: what makes YCSB exit', async () => {
  await expectOne('recordcount=10\n', 'missing-workload', Error, 'recordcount', /Missing property: workload/);
  await expectOne(
    `${base}insertstart=500\ninsertcount=600\n`,
    'insert-range-exceeds-recordcount',
    Error,
    '600',
    /500 \+ 600/,
  );
  await expectOne(`${base}requestdistribution=zipfan\n`, 'unknown-value', Error, 'zipfan', /Did you mean 'zipfian'/);
  await expectOne(`${base}requestdistribution=Zipfian\n`, 'unknown-value', Error, 'Zipfian');
  await expectOne(`${base}requestdistribution=zipfian \n`, 'unknown-value', Error, 'zipfian ', /white space/);
  await expectOne(
    'workload=site.ycsb.workloads.RestWorkload\nrequestdistribution=latest\n',
    'unknown-value',
    Error,
    'latest',
    /RestWorkload/,
  );
  await expectOne(
    'workload=site.ycsb.workloads.CoreWorkload\nrequestdistribution=zipfian\n',
    'zipfian-needs-operationcount',
    Error,
    'zipfian',
  );
  await expectOne(
    `${base}dataintegrity=true\nfieldlengthdistribution=uniform\n`,
    'dataintegrity-needs-constant-fieldlength',
    Error,
    'uniform',
  );
  await expectOne(`${base}fieldcount=ten\n`, 'invalid-integer', Error, 'ten');
  await expectOne(`${base}threadcount=3000000000\n`, 'invalid-integer', Error, '3000000000', /does not fit a Java int/);
  await expectOne(`${base}threadcount=8 \n`, 'invalid-integer', Error, '8 ', /white space/);
  await expectOne(`${base}readproportion=half\n`, 'invalid-number', Error, 'half');
  await expectOne(`${base}couchbase.persistTo=5\n`, 'value-out-of-range', Error, '5', /between 0 and 4/);
  await expectOne(`${base}couchbase.replicateTo=4\n`, 'value-out-of-range', Error, '4', /between 0 and 3/);
  await expectOne(
    `${base}couchbase.kv=false\ncouchbase.syncMutationResponse=false\n`,
    'kv-off-needs-sync-mutation',
    Error,
    'false',
  );
  await expectOne(`${base}readproportion=0\nupdateproportion=0\n`, 'no-operations', Error, 'readproportion');
  await expectOne(`${base}measurementtype=hdr\n`, 'unknown-value', Error, 'hdr');
  await expectOne(
    'workload=site.ycsb.workloads.TimeSeriesWorkload\nfieldcount=4\nthreadcount=8\noperationcount=100\n',
    'timeseries-fields-below-threads',
    Error,
    '8',
  );
  await expectOne(
    'workload=site.ycsb.workloads.TimeSeriesWorkload\nrecordcount=10\ngroupbyfunction=SUM\n',
    'missing-companion-key',
    Error,
    'groupbyfunction',
    /groupbykeys/,
  );
  await expectOne(
    `${base}db=site.ycsb.db.CouchbaseClient\ncouchbase.view=v\nscanproportion=0.1\n`,
    'missing-companion-key',
    Error,
    'scanproportion',
    /couchbase\.ddoc/,
  );
  await expectOne(`${base}label=caf\\u00zz\n`, 'malformed-unicode-escape', Error, '\\u00zz');
});

test('warnings: what YCSB silently changes, saying what it really does', async () => {
  await expectOne(
    `${base}requestdistribution=hotspot\nhotspotdatafraction=1.5\n`,
    'hotspot-fraction-reset',
    Warning,
    '1.5',
    /uses 0\.0/,
  );
  await expectOne(`${base}insertorder=hashd\n`, 'insertorder-means-ordered', Warning, 'hashd', /as 'ordered'/);
  await expectOne(`${base}couchbase.upsert=True\n`, 'boolean-case-false', Warning, 'True', /counts as false/);
  await expectOne(`${base}readallfields=yes\n`, 'not-a-boolean', Warning, 'yes', /as false/);
  await expectOne(`${base}recordcont=5\n`, 'unknown-key', Warning, 'recordcont', /Did you mean 'recordcount'/);
  await expectOne(`${base}zipfianconstant=0.8\n`, 'unknown-key', Warning, 'zipfianconstant', /fixed at 0\.99/);
  await expectOne(`${base}fieldcount=5\nfieldcount=6\n`, 'duplicate-key', Warning, 'fieldcount', /line 5.*'6'/);
  await expectOne(`${base}minscanlength=50\nmaxscanlength=10\n`, 'min-above-max', Warning, '50');
  await expectOne(`${base}readproportion=-0.5\nupdateproportion=1\n`, 'negative-proportion', Warning, '-0.5');
  await expectOne(
    `${base}threadcount=5000\n`,
    'threads-above-operations',
    Warning,
    '5000',
    /lowers the thread count to 1000/,
  );
  await expectOne(`${base}status.interval=0\n`, 'value-out-of-range', Warning, '0', /at least 1/);
  await expectOne(
    'workload=site.ycsb.workloads.CoreWorklod\nrecordcount=1\n',
    'class-name-typo',
    Warning,
    'site.ycsb.workloads.CoreWorklod',
    /did you mean 'site\.ycsb\.workloads\.CoreWorkload'/,
  );
  await expectOne(`${base}hdrhistogram.percentiles=50,p99\n`, 'invalid-percentiles', Warning, '50,p99');
  await expectOne(
    `${base}couchbase.host=10.0.0.1\ncouchbase.epoll=true\ncouchbase.url=http://x:8091/pools\n`,
    'key-for-other-binding',
    Warning,
    'couchbase.url',
    /couchbase binding, not by couchbase2/,
  );
});

test('warnings: non-ASCII text, which YCSB reads as ISO-8859-1', async () => {
  const diagnostic = await expectOne(`${base}label=café\n`, 'non-ascii-text', Warning, 'label=café', /ISO-8859-1/);
  const data = diagnostic.data as { fixes: { edits: { newText: string }[] }[] };
  assert.equal(data.fixes[0]!.edits[0]!.newText, 'caf\\u00e9');
});

test('information: keys only YCSB master reads', async () => {
  await expectOne(
    `${base}readallfieldsbyname=true\n`,
    'key-not-in-release',
    Information,
    'readallfieldsbyname',
    /0\.17\.0 release ignores it/,
  );
});

test('information: proportions that do not add up to 1 show the normalised mix', async () => {
  await expectOne(
    `${base}readproportion=0.5\nupdateproportion=0.6\n`,
    'proportions-not-normalised',
    Information,
    'readproportion',
    /add up to 1\.1.*update 54\.5% · read 45\.5%/,
  );
});

test('binding detection: couchbase binding keys are not flagged for the couchbase binding', async () => {
  const diagnostics = await diagnose(
    `${base}db=site.ycsb.db.CouchbaseClient\ncouchbase.url=http://h:8091/pools\ncouchbase.stale=update_after\n`,
  );
  assert.deepEqual(diagnostics, []);
});

test('every fixable diagnostic carries its quick fixes in data', async () => {
  const diagnostic = await expectOne(`${base}requestdistribution=unifrom\n`, 'unknown-value', Error, 'unifrom');
  const data = diagnostic.data as { fixes: { title: string; edits: { newText: string }[] }[] };
  assert.equal(data.fixes[0]!.title, "Change to 'uniform'");
  assert.equal(data.fixes[0]!.edits[0]!.newText, 'uniform');
});
