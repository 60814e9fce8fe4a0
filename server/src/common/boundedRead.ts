// Reads a file the services were pointed at (an `onload_import`, a workload a plan names, a file
// given to `lint`) only when it is a regular file no larger than a bound, and never blocks doing
// so. A profile may name anything: `onload_import /dev/zero` once grew the server to 2 GB and a
// FIFO beside a profile hung every hover, and the process with it, for ever. Devices, FIFOs and
// sockets are refused from their `stat` before they are opened (opening some devices does
// something); the file is then opened non-blocking and checked again, in case it was swapped.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { maxAnalysedCharacters } from './documentLimits';

/** What a bounded read found. */
export type BoundedRead =
  | {
      kind: 'text';
      text: string;
      /** The file's bytes, for whoever must pass them on unchanged (an upload). */ bytes: Buffer;
    }
  | { kind: 'missing' }
  | { kind: 'not-regular'; what: string }
  | { kind: 'too-large'; bytes: number };

/** Far above any real profile or workload (a few KB), and what the services analyse at most. */
export const maxReadBytes = maxAnalysedCharacters;

/** When each read in progress started (processExit.ts: none of them can block, but a network mount may). */
const started = new Set<number>();

/** How long the oldest read in progress has been going, in milliseconds (0: none). */
export function oldestReadAgeMs(): number {
  let oldest = Infinity;
  for (const time of started) oldest = Math.min(oldest, time);
  return oldest === Infinity ? 0 : performance.now() - oldest;
}

/** What kind of file a stat (or an lstat: the engine's run folders never follow links) describes, in words. */
export function describeFileKind(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

export async function readBoundedText(path: string, maxBytes = maxReadBytes): Promise<BoundedRead> {
  // A unique key per read (two may start within the same millisecond).
  let time = performance.now();
  while (started.has(time)) time += 1e-6;
  started.add(time);
  try {
    const before = await stat(path).catch(() => undefined);
    if (!before) return { kind: 'missing' };
    if (!before.isFile()) return { kind: 'not-regular', what: describeFileKind(before) };
    if (before.size > maxBytes) return { kind: 'too-large', bytes: before.size };
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch(
      () => undefined,
    );
    if (!handle) return { kind: 'missing' };
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { kind: 'not-regular', what: describeFileKind(info) };
      // One byte more than allowed tells a file that grew past the bound since its stat.
      const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length === buffer.length) break;
      }
      if (length > maxBytes) return { kind: 'too-large', bytes: length };
      return { kind: 'text', text: buffer.toString('utf8', 0, length), bytes: buffer.subarray(0, length) };
    } finally {
      await handle.close();
    }
  } finally {
    started.delete(time);
  }
}

/** Why a file was not read, for a message: 'a FIFO (named pipe), not a regular file'. */
export function describeUnreadable(read: Exclude<BoundedRead, { kind: 'text' }>): string {
  switch (read.kind) {
    case 'missing':
      return 'no such file';
    case 'not-regular':
      return `${read.what}, not a regular file`;
    case 'too-large':
      return `${read.bytes.toLocaleString('en-US')} bytes, more than the ${(maxReadBytes / (1024 * 1024)).toFixed(0)} MiB a profile or workload may have`;
  }
}

/** The text of a regular file within the bound; otherwise an error naming the file and why it is not read. */
export async function readBoundedTextOrThrow(path: string): Promise<string> {
  const read = await readBoundedText(path);
  if (read.kind !== 'text') throw new Error(`${path}: cannot read: ${describeUnreadable(read)}`);
  return read.text;
}
