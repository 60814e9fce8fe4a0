// How a stack is named wherever a reader sees it. A plan's stack is a bare name (`kernel`,
// `latency`), and an Onload profile called `latency` read as a metric on a latency chart
// ("kernel / latency"), so every view says which kind of stack it is: `kernel`, `Onload · latency`,
// or the display name the plan gives the stack. Pure.
import { baselineStack } from './report';

/** `kernel`, `Onload · latency`, or the plan's display name of the stack. */
export function stackLabel(stack: string, displayNames: Readonly<Record<string, string>> = {}): string {
  const named = Object.hasOwn(displayNames, stack) ? displayNames[stack]?.trim() : undefined;
  if (named) return named;
  return stack === baselineStack ? 'kernel' : `Onload · ${stack}`;
}
