// How a stack is named wherever a reader sees it. A plan's stack is a bare name (`kernel`,
// `latency`), and an Onload profile called `latency` read as a metric on a latency chart
// ("kernel / latency") or in a CSV header (`latency min`), so every view says which kind of stack
// it is: `kernel`, `Onload · latency`, or the display name the plan gives the stack
// (`stacks[].displayName`, read back from the run's recorded plan). The stack's name stays its id
// (cell keys, data attributes, JSON); only what is read changes. Pure.
/** The stack every profile is compared with. */
export const baselineStack = 'kernel';

export type StackDisplayNames = Readonly<Record<string, string>>;

/** `kernel`, `Onload · latency`, or the plan's display name of the stack. */
export function stackLabel(stack: string, displayNames: StackDisplayNames = {}): string {
  const named = Object.hasOwn(displayNames, stack) ? displayNames[stack]?.trim() : undefined;
  if (named) return named;
  return stack === baselineStack ? baselineStack : `Onload · ${stack}`;
}

/**
 * The display names a recorded plan gives its stacks (a run folder is anyone's: anything but a
 * short printable string is ignored, and the default label is used).
 */
export function stackDisplayNames(plan: unknown): Record<string, string> {
  const names: Record<string, string> = {};
  const stacks = (plan as { stacks?: unknown } | undefined)?.stacks;
  if (!Array.isArray(stacks)) return names;
  for (const stack of stacks) {
    if (typeof stack !== 'object' || stack === null) continue;
    const { name, displayName } = stack as { name?: unknown; displayName?: unknown };
    if (typeof name !== 'string' || typeof displayName !== 'string') continue;
    const shown = displayName.trim();
    // a name shown in a legend: one line of printable text
    // eslint-disable-next-line no-control-regex
    if (shown.length === 0 || shown.length > 64 || /[\u0000-\u001f\u007f-\u009f]/.test(shown)) continue;
    names[name] = shown;
  }
  return names;
}
