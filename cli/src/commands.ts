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
  // Each feature adds its own line here, e.g.
  // { name: 'lint', usage: 'lint FILE...', summary: '...', load: () => import('./lint') },
];
