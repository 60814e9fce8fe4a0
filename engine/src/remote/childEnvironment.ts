// The environment the engine gives to the processes it starts (ssh and its ProxyCommands): the
// parent's, minus the password. The CLI reads it from CB_PASSWORD and the editor from a variable
// the user names; neither child needs it (the password reaches YCSB over SSH's stdin, secrets.ts),
// and an inherited variable is readable in /proc/<pid>/environ by anything running as the user.

/** The variable the CLI reads the password from. */
export const defaultPasswordEnvVar = 'CB_PASSWORD';

export function childEnvironment(
  env: NodeJS.ProcessEnv,
  secrets: readonly string[] = [],
  names: readonly string[] = [],
): NodeJS.ProcessEnv {
  const drop = new Set([defaultPasswordEnvVar, ...names]);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || drop.has(name)) continue;
    // a configured variable the engine was not told the name of: recognised by its value
    if (secrets.some((secret) => secret.length > 0 && value === secret)) continue;
    out[name] = value;
  }
  return out;
}
