// Wraps a host session so every remote command (and every upload, by path only: uploaded content
// may be a credentials file) is reported for the "Onload Bench" log, with secrets redacted.
import type { RemoteResult, RemoteRunOptions, RemoteSession } from '../../../engine/src/index';
import { redactSecrets } from '../../../engine/src/report/index';

export interface CommandLogLine {
  host: string;
  step: string;
  text: string;
}

export function loggingSession(
  inner: RemoteSession,
  report: (line: CommandLogLine) => void,
  redact: (text: string) => string,
): RemoteSession {
  const host = inner.host;
  return {
    host,
    async run(command: string, options: RemoteRunOptions): Promise<RemoteResult> {
      report({ host, step: options.step, text: `$ ${redact(command)}` });
      try {
        const result = await inner.run(command, options);
        if (result.exitCode !== 0) report({ host, step: options.step, text: `exit ${result.exitCode}` });
        return result;
      } catch (error) {
        report({
          host,
          step: options.step,
          text: `failed: ${redact(error instanceof Error ? error.message : String(error))}`,
        });
        throw error;
      }
    },
    async upload(
      remotePath: string,
      content: string | Buffer,
      options: { step: string; mode?: string; signal?: AbortSignal },
    ): Promise<void> {
      const size = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
      report({
        host,
        step: options.step,
        text: `upload ${redact(remotePath)} (${size} bytes${options.mode ? `, mode ${options.mode}` : ''})`,
      });
      await inner.upload(remotePath, content, options);
    },
    close: () => inner.close(),
  };
}

/** `cb-server [ycsb-run] $ cd ~/.onload-bench && ...` */
export function formatCommandLogLine(line: CommandLogLine): string {
  return `${line.host} [${line.step}] ${line.text}`;
}

/**
 * Replaces every form of the password the engine writes (redaction.ts; when long enough to be unambiguous) with
 * asterisks.
 */
export function redactor(secret: string): (text: string) => string {
  return (text) => redactSecrets(text, [secret]);
}
