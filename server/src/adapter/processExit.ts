// How the server process ends: on `exit` and on the end of its input. The LSP asks a server to
// exit on `exit` (0 after `shutdown`, else 1); a client that goes away without it (closed stdin;
// eglot, ALE and scripts do) must not leave the server running until its process id disappears,
// or for ever when it gave none.
export function exitProcess(code: number): never {
  process.exit(code);
}
