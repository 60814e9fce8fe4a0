// Every install step of the test tools (Node 24, code-server, the lab's root filesystem, later
// Maven artifacts) retries once after a failure and keeps what each attempt printed
// (scripts/retry.sh): a CI run must not go red for one transient registry error, nor fail with an
// empty log. What runs between the attempts is an argument list, never shell text.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const scratch = mkdtempSync(join(tmpdir(), 'retry-install-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const helper = join(__dirname, '..', '..', 'scripts', 'retry.sh');

function run(script: string): { status: number | null; stderr: string } {
  const result = spawnSync('bash', ['-c', `. ${helper}; ${script}`], {
    encoding: 'utf8',
    env: { ...process.env, ONLOAD_BENCH_RETRY_PAUSE: '0' },
    timeout: 20_000,
  });
  return { status: result.status, stderr: result.stderr };
}

test("a step that fails once passes on its second attempt, and the first attempt's output is kept", () => {
  const log = join(scratch, 'flaky.log');
  const flag = join(scratch, 'flag');
  const result = run(
    `retry_install "tools: demo" ${log} --before sh -c 'echo cleaned > "$1"' cleanup ${join(scratch, 'cleaned')} -- sh -c '[ -e ${flag} ] && echo installed || { touch ${flag}; echo "npm ERR! network ECONNRESET"; exit 1; }'`,
  );
  assert.equal(result.status, 0);
  assert.match(
    result.stderr,
    /tools: demo: attempt 1 failed \(exit 1\), trying again; its output is kept in .*flaky\.log\.attempt1/,
  );
  assert.equal(readFileSync(`${log}.attempt1`, 'utf8'), 'npm ERR! network ECONNRESET\n');
  assert.equal(readFileSync(`${log}.attempt2`, 'utf8'), 'installed\n');
  assert.equal(
    readFileSync(join(scratch, 'cleaned'), 'utf8'),
    'cleaned\n',
    'the half install is removed before the second attempt',
  );
});

test("a step that fails twice fails with both attempts' output printed", () => {
  const result = run(
    `retry_install "lab-root: debootstrap" ${join(scratch, 'broken.log')} -- sh -c 'echo "E: Failed getting release file"; exit 7'`,
  );
  assert.equal(result.status, 7);
  assert.match(
    result.stderr,
    /lab-root: debootstrap: failed twice \(exit 7\)\. Output of both attempts:\n--- .*broken\.log\.attempt1 \(last 30 lines\)\nE: Failed getting release file\n--- .*broken\.log\.attempt2 \(last 30 lines\)\nE: Failed getting release file\n$/,
  );
});

test('the clean-up between attempts takes a path as a path: a quote or a semicolon in it runs nothing', () => {
  const odd = join(scratch, "half'; touch pwned; echo '");
  const result = spawnSync(
    'bash',
    [
      '-c',
      `. ${helper}; mkdir -p "$1/node_modules" && retry_install "tools: demo" "$2" --before rm -rf "$1" -- false`,
      'retry',
      odd,
      join(scratch, 'odd.log'),
    ],
    { encoding: 'utf8', cwd: scratch, env: { ...process.env, ONLOAD_BENCH_RETRY_PAUSE: '0' }, timeout: 20_000 },
  );
  assert.equal(result.status, 1);
  assert.equal(existsSync(odd), false, 'the folder with the odd name is removed');
  assert.equal(existsSync(join(scratch, 'pwned')), false, 'nothing in the path ran as a command');
});
