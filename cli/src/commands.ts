// The command table. A command module exports `run(args): Promise<number>` (the exit code).
export interface CliCommand {
  run(args: string[]): Promise<number>;
}

export interface CommandEntry {
  name: string;
  usage: string;
  summary: string;
  load(): Promise<CliCommand>;
}

export const commands: CommandEntry[] = [
  {
    name: 'parse',
    usage: 'parse YCSB_LOG [--json]',
    summary: 'Print the final report of a YCSB log or JSON export (--json: every measurement)',
    load: () => import('./parse.js'),
  },
  {
    name: 'report',
    usage: 'report RUN_DIR [--csv|--json] [--metric M]',
    summary: 'Print kernel vs Onload tables of a run (throughput, read latency, ...)',
    load: () => import('./report.js'),
  },
  {
    name: 'lint',
    usage: 'lint [--root DIR] [--profile-path DIR] [--format text|json|sarif] FILE|DIR...',
    summary:
      'Check Onload profiles, YCSB workloads and benchmark plans (file:line:col severity code message; exit 1 on errors)',
    load: () => import('./lint.js'),
  },
  {
    name: 'run',
    usage: 'run PLAN [--resume [RUN_DIR]] [--results DIR]',
    summary: 'Run a kernel-vs-Onload sweep over SSH (password from CB_PASSWORD or a prompt)',
    load: () => import('./run.js'),
  },
];
