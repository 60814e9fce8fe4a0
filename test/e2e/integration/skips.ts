// Records why a test was skipped, so the summary says which piece of the product was missing.
export const skipReasons: { test: string; reason: string }[] = [];

export function skipBecause(context: Mocha.Context, reason: string): never {
  skipReasons.push({ test: context.test?.fullTitle() ?? '?', reason });
  console.log(`    SKIPPED: ${reason}`);
  context.skip();
}
