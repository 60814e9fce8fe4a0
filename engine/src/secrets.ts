// The Couchbase password reaches YCSB only through a properties file that is created with umask
// 077 over SSH's stdin, used with `-P`, and deleted when the phase ends. It is never put on a
// command line (visible in `ps`), in a log or in a results file.
import { randomBytes } from 'node:crypto';
import type { RemoteSession } from './ssh';
import { shellQuote } from './shellQuote';

/** Escapes a value for java.util.Properties (read as ISO-8859-1, so anything else is \uXXXX). */
export function escapePropertiesValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    const code = value.charCodeAt(i);
    if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\f') out += '\\f';
    else if (char === ' ' && out === '') out += '\\ ';
    else if (char === '=' || char === ':' || char === '#' || char === '!') out += `\\${char}`;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return out;
}

export function credentialsProperties(user: string, password: string): string {
  return `# written by onload-bench for one YCSB phase; deleted afterwards\ncouchbase.username=${escapePropertiesValue(user)}\ncouchbase.password=${escapePropertiesValue(password)}\n`;
}

export function secretFileName(workDir: string): string {
  return `${workDir}/secret-${randomBytes(8).toString('hex')}.properties`;
}

/** Uploads the credentials file, runs `use(path)`, and always deletes the file. */
export async function withCredentialsFile<T>(session: RemoteSession, workDir: string, user: string, password: string, step: string, use: (path: string) => Promise<T>): Promise<T> {
  const path = secretFileName(workDir);
  await session.upload(path, credentialsProperties(user, password), { step, mode: '600' });
  try {
    return await use(path);
  } finally {
    await session.run(`rm -f ${shellQuote(path)}`, { step }).catch(() => undefined);
  }
}

/** Removes credentials files left behind by a crashed run. */
export function staleSecretsCleanup(workDir: string): string {
  return `rm -f ${shellQuote(workDir)}/secret-*.properties`;
}
