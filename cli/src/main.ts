#!/usr/bin/env node
// `onload-bench`: the command line over the same language services and engine as the extension.
// Each command lives in its own file and is loaded only when used, so `lint` stays quick.
import { version } from '../../package.json';
import { commands } from './commands';

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    printUsage();
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(version);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    console.error(`onload-bench: unknown command '${name}'`);
    printUsage();
    return 2;
  }
  return (await command.load()).run(args);
}

function printUsage(): void {
  const width = Math.max(...commands.map((command) => command.usage.length));
  console.log('Usage: onload-bench <command> [options]\n');
  for (const command of commands) console.log(`  ${command.usage.padEnd(width)}  ${command.summary}`);
}

// `onload-bench lint … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`onload-bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
