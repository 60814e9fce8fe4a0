import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkPlanText, loadPlan } from '../../../engine/src/plan/plan';

const folder = mkdtempSync(join(tmpdir(), 'plan-test-'));
after(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(
  join(folder, 'workloada'),
  'recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\n',
);
writeFileSync(join(folder, 'redis.opf'), 'onload_set EF_POLL_USEC 100000\n');

const valid = {
  servers: [{ host: 'cb-server' }],
  interfaces: { '25G': '10.20.128.35' },
  clients: [{ host: 'ycsb-client', ycsbHome: '/opt/ycsb' }],
  bucket: { name: 'bench' },
  workload: { path: 'workloada' },
  stacks: ['kernel', { name: 'redis-balanced', profile: 'redis.opf' }],
};

describe('plan validation', () => {
  it('accepts a minimal plan', () => {
    const { errors } = checkPlanText(JSON.stringify(valid), folder);
    assert.deepEqual(errors, []);
  });

  it('a stack may carry a display name (how results show it); a control character in it is refused', () => {
    const named = {
      ...valid,
      stacks: ['kernel', { name: 'redis-balanced', profile: 'redis.opf', displayName: 'Onload balanced' }],
    };
    assert.deepEqual(checkPlanText(JSON.stringify(named), folder).errors, []);
    const hostile = {
      ...valid,
      stacks: ['kernel', { name: 'redis-balanced', profile: 'redis.opf', displayName: 'x\u001b]0;t' }],
    };
    assert.deepEqual(
      checkPlanText(JSON.stringify(hostile), folder).errors.map((error) => error.path),
      ['stacks[1].displayName'],
    );
  });

  it('points at the offending value with line, column and JSON path', () => {
    const text = `{
  "servers": [{ "host": "cb-server", "restPort": 70000 }],
  "interfaces": { "25G": "10.20.128.35" },
  "clients": [{ "host": "ycsb-client", "ycsbHome": "/opt/ycsb" }],
  "bucket": { "name": "bench", "evictionPolicy": "sometimes" },
  "workload": { "path": "workloada" },
  "stacks": ["kernel"]
}`;
    const { errors } = checkPlanText(text, folder);
    const port = errors.find((error) => error.path === 'servers[0].restPort');
    assert.ok(port, JSON.stringify(errors));
    assert.equal(port.line, 2);
    assert.equal(port.column, text.split('\n')[1].indexOf('70000') + 1);
    assert.equal(port.length, 5);
    assert.match(port.message, /^servers\[0\]\.restPort: must be <= 65535/);
    const eviction = errors.find((error) => error.path === 'bucket.evictionPolicy');
    assert.ok(eviction);
    assert.equal(eviction.line, 5);
    assert.match(eviction.message, /must be one of "valueOnly", "fullEviction"/);
    assert.equal(errors.length, 2);
  });

  it('names unknown settings on their key and missing ones on their object', () => {
    const text = JSON.stringify({ ...valid, clients: [{ host: 'ycsb-client', ycsbhome: '/opt/ycsb' }] }, null, 2);
    const { errors } = checkPlanText(text, folder);
    const unknown = errors.find((error) => error.message.includes('unknown setting "ycsbhome"'));
    const missing = errors.find((error) => error.message.includes('missing required setting "ycsbHome"'));
    assert.ok(unknown && missing, JSON.stringify(errors));
    assert.equal(text.slice(unknown.offset, unknown.offset + unknown.length), '"ycsbhome"');
    assert.equal(missing.path, 'clients[0]');
    assert.equal(text[missing.offset], '{');
  });

  it('explains a malformed stack and a threads range with the branch that applies', () => {
    const text = JSON.stringify(
      { ...valid, stacks: ['kernal', { name: 'x' }], threads: { from: 5, to: 50, factor: 1 } },
      null,
      2,
    );
    const messages = checkPlanText(text, folder).errors.map((error) => error.message);
    assert.deepEqual(
      messages.sort(),
      [
        'stacks[0]: must be "kernel"',
        'stacks[1]: missing required setting "profile"',
        'threads.factor: must be > 1',
      ].sort(),
    );
  });

  it('refuses an SSH destination that would be read as an option', () => {
    const { errors } = checkPlanText(JSON.stringify({ ...valid, servers: [{ host: '-oProxyCommand=x' }] }), folder);
    assert.ok(
      errors.some((error) => error.path === 'servers[0].host' && /must not start with "-"/.test(error.message)),
      JSON.stringify(errors),
    );
  });

  it('reports JSON syntax errors at their position', () => {
    const text = '{\n  "servers": [\n    { "host": "a" }\n  ,\n}';
    const { errors } = checkPlanText(text, folder);
    assert.equal(errors[0].code, 'json-syntax');
    assert.ok(errors[0].line >= 4, JSON.stringify(errors[0]));
  });

  it('checks files, duplicate stacks and empty ranges after the schema', () => {
    const text = JSON.stringify(
      { ...valid, workload: { path: 'missing-workload' }, stacks: ['kernel', 'kernel'], threads: { from: 50, to: 5 } },
      null,
      2,
    );
    const { errors } = checkPlanText(text, folder);
    const byCode = errors.map((error) => `${error.code} ${error.path}`).sort();
    assert.deepEqual(byCode, ['file-missing workload.path', 'plan-semantics stacks[1]', 'plan-semantics threads']);
  });

  it('loadPlan reads a file and reports an unreadable one as an error value', async () => {
    writeFileSync(join(folder, 'ok.benchplan.json'), JSON.stringify(valid));
    const loaded = await loadPlan(join(folder, 'ok.benchplan.json'));
    assert.deepEqual(loaded.errors, []);
    assert.equal(loaded.plan.bucket.name, 'bench');
    const missing = await loadPlan(join(folder, 'nope.benchplan.json'));
    assert.equal(missing.errors[0].code, 'read');
  });

  it('the example plans are valid', async () => {
    const examples = join(__dirname, '..', '..', '..', 'examples', 'plans');
    const files = readdirSync(examples).filter((name) => name.endsWith('.benchplan.json'));
    assert.ok(files.length >= 2);
    for (const name of files) {
      const { errors } = await loadPlan(join(examples, name));
      assert.deepEqual(errors, [], name);
    }
  });
});
