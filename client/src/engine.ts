// The one place the extension loads the benchmark engine. It is imported on first use (a
// command or a task), never at activation: the engine pulls in SSH handling and, through it,
// the Couchbase SDK with its native binary.
export type Engine = typeof import('../../engine/src/index.js');

let loading: Promise<Engine> | undefined;

export function loadEngine(): Promise<Engine> {
  loading ??= import('../../engine/src/index.js');
  return loading;
}
