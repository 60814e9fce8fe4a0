// Missing evidence never reads as clean (issue 21), on the lab's real hosts: a client whose CPU
// sampler dies at once (here killed by the test through its pid file, as an OOM killer or a host
// without a working awk would) leaves no readings; the cell must say that whether the client was
// saturated could not be checked, instead of passing as not client-bound.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadPlan } from '../../../engine/src/index';
import type { CellResult } from '../../../engine/src/model';
import { withDefaults } from '../../../engine/src/plan/planSchema';
import { runSweep } from '../../../engine/src/sweep/sweep';
import { labUnavailable, startLab, writeLabPlan, type Lab } from '../../lab/index';

describe('missing evidence on the lab (issue 21)', { skip: labUnavailable() }, () => {
  let lab: Lab;
  let work: string;
  before(async () => {
    lab = await startLab();
    work = mkdtempSync(join(tmpdir(), 'engine-missing-'));
  });
  after(async () => {
    await lab?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('a client without CPU readings marks the cell client-cpu-unverified', { timeout: 240_000 }, async () => {
    const planPath = writeLabPlan(lab, {
      dir: join(work, 'plan'),
      stacks: ['kernel'],
      threads: [1],
      interfaces: [lab.interfaces[0]],
    });
    const { plan, errors } = await loadPlan(planPath);
    assert.deepEqual(errors, []);
    const client = withDefaults(plan!).clients[0];
    const pidFile = `${client.workDir.startsWith('/') ? '' : `/home/${lab.sshUser}/`}${client.workDir}/cpu-sampler-client.pid`;
    let sweeping = true;
    let killed = 0;
    const seen = new Set<string>();
    // the client's sampler group is killed as soon as its pid file appears
    const killer = (async () => {
      while (sweeping) {
        const outcome = await lab.root(
          client.host,
          `p=$(cat ${pidFile} 2>/dev/null) && g=$(ps -o pgid= -p "$p" | tr -d ' ') && [ -n "$g" ] && kill -9 -"$g" && rm -f ${pidFile} && echo killed`,
        );
        if (outcome.stdout.includes('killed')) killed++;
        else if (outcome.stderr.trim() !== '') seen.add(`stderr: ${outcome.stderr.trim()}`);
        seen.add(
          (await lab.root(client.host, `ls ${pidFile.replace(/\/[^/]*$/, '')} 2>&1 | tr '\\n' ' '`)).stdout.trim(),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    let results: CellResult[];
    try {
      const outcome = await runSweep({
        planPath,
        plan: plan!,
        resultsRoot: join(work, 'results'),
        password: lab.couchbase.password,
        signal: new AbortController().signal,
        onEvent: () => undefined,
        ssh: { configFile: lab.sshConfigPath },
      });
      const path = outcome.runDir ? join(outcome.runDir, 'results.jsonl') : '';
      results =
        path && existsSync(path)
          ? readFileSync(path, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as CellResult)
          : [];
    } finally {
      sweeping = false;
      await killer;
    }
    assert.ok(
      killed > 0,
      `the client sampler was killed (${pidFile}: ${[...seen].join(' | ')}; ${JSON.stringify(results[0]?.error)})`,
    );
    const [cell] = results;
    assert.equal(cell?.status, 'ok', JSON.stringify(cell?.error));
    assert.equal(
      ((cell?.evidence as Record<string, any>)?.cpu?.hosts ?? {})[client.host],
      undefined,
      'no CPU figures for the client',
    );
    const mark = cell?.marks?.find((each) => each.code === 'client-cpu-unverified');
    assert.ok(mark, `marked: ${JSON.stringify(cell?.marks)}`);
    assert.match(mark.message, new RegExp(`whether ${client.host} was client-bound could not be checked`));
  });
});
