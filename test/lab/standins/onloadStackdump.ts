// Stand-in `onload_stackdump` for the loopback lab. With no arguments (or `lots`/`stacks` style
// listing requests) it lists one "stack" per process started under the stand-in `onload` of this
// lab, in the shape of the real tool's listing:
//   #stack-id stack-name      pids
//   0         -               12345
// Exit 0 even when there are no stacks (the listing is then only the header), as the real tool.
import { labProcesses } from '../processes';

function main(argv: string[]): number {
  const labId = process.env.ONLOAD_BENCH_LAB_ID ?? '';
  if (argv.includes('--version')) {
    process.stdout.write('onload_stackdump (loopback lab stand-in)\n');
    return 0;
  }
  const accelerated = labProcesses(labId)
    .filter((info) => info.env.get('ONLOAD_BENCH_LAB_ACCELERATED') === '1')
    .sort((a, b) => a.pid - b.pid);
  const lines = ['#stack-id stack-name      pids'];
  accelerated.forEach((info, index) => {
    const name = info.env.get('EF_NAME') || '-';
    lines.push(`${String(index).padEnd(10)}${name.padEnd(16)}${info.pid}`);
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

process.exit(main(process.argv.slice(2)));
