// The Couchbase password reaches YCSB only through a properties file written with umask 077 from
// SSH's stdin by the same remote command that runs YCSB with `-P`, and deleted when YCSB ends
// (see runInGroup). It is never put on a command line (visible in `ps`), in a log or a results file.
import { randomBytes } from 'node:crypto';
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

/** Removes credentials files left behind by a crashed run. */
export function staleSecretsCleanup(workDir: string): string {
  return `rm -f ${shellQuote(workDir)}/secret-*.properties`;
}
