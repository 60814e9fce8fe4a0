// The argument handling every command shares: node:util's parseArgs with positionals, `-h/--help`
// printing the usage (exit 0), and bad options printing the reason and the usage (exit 2).
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

const help = { help: { type: 'boolean', short: 'h' } } as const;

/** The parsed arguments, or the exit code when the command should stop here. */
export function commandArguments<T extends Options>(command: string, usage: string, args: string[], options: T) {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { ...options, ...help } as T & typeof help });
  } catch (error) {
    console.error(`onload-bench ${command}: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return 0;
  }
  return parsed;
}
