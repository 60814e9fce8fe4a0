// A run folder can come from anyone (a share, a repository, an archive), so its files are opened
// the one way here: never through a symbolic link (O_NOFOLLOW on the file, lstat on the folder and
// on every folder below it), regular files only, checked on the open descriptor, so a FIFO or a
// device named `manifest.json` or `results.jsonl` is refused at once instead of hanging a reader or
// feeding it without end (O_NONBLOCK: opening a FIFO never waits for a writer). `report`, the
// results panel, the resume listing, resume itself and the writers all go through these functions.
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative as relativePath, resolve, sep } from 'node:path';
import { describeFileKind } from '../../../server/src/common/boundedRead';

const { O_RDONLY, O_RDWR, O_WRONLY, O_CREAT, O_APPEND, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Flags for reading a run folder's file: no link followed, no wait on a FIFO. */
const readFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
/** Flags for the append-only results file (created when missing; read back for its last line). */
export const appendFlags = O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK;
/** Flags for a new file (a log, a temporary): it must not exist, so nothing planted is written through. */
export const createFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

/** A run-folder file that is not what a run folder holds; `code` as an errno would say it. */
export class RunFileRefused extends Error {
  constructor(
    message: string,
    readonly code: 'ELOOP' | 'ENOTREG' | 'ENOTDIR' | 'EFBIG',
  ) {
    super(message);
  }
}

/** Refuses what open(O_NOFOLLOW) reports for a link with a message that says so. */
function refusedOpen(path: string, error: unknown): never {
  if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
    throw new RunFileRefused(`${path} is a symbolic link; files of a run folder are never followed`, 'ELOOP');
  }
  throw error;
}

/** The open descriptor must be a regular file; anything else is closed and refused. */
async function requireRegular(handle: Pick<FileHandle, 'stat' | 'close'>, path: string): Promise<Stats> {
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close().catch(() => undefined);
    throw new RunFileRefused(
      `${path} is ${describeFileKind(info)}, not a regular file; a run folder holds only regular files`,
      'ENOTREG',
    );
  }
  return info;
}

/**
 * Opens a run-folder file for reading, regular files only. `undefined` when it does not exist;
 * a link, FIFO, device or folder is a RunFileRefused.
 */
export async function openRunFile(path: string): Promise<{ handle: FileHandle; size: number } | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, readFlags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    refusedOpen(path, error);
  }
  const info = await requireRegular(handle, path);
  return { handle, size: info.size };
}

/**
 * Opens with `flags` (a number from this file) through `opener` (a test seam) and refuses what is not a regular file.
 */
export async function openRegular<H extends Pick<FileHandle, 'stat' | 'close'>>(
  path: string,
  flags: number,
  opener: (path: string, flags: number) => Promise<H>,
): Promise<H> {
  let handle: H;
  try {
    handle = await opener(path, flags);
  } catch (error) {
    refusedOpen(path, error);
  }
  await requireRegular(handle, path);
  return handle;
}

/**
 * A whole small file (the manifest, a lock) read with a bound: past `maxBytes` nothing is read and
 * the refusal says how big the file is. `undefined` when it does not exist.
 */
export async function readRunFileText(path: string, maxBytes: number): Promise<string | undefined> {
  const opened = await openRunFile(path);
  if (!opened) return undefined;
  const { handle, size } = opened;
  try {
    if (size > maxBytes)
      throw new RunFileRefused(
        `${path} is ${describeSize(size)}, more than the ${describeSize(maxBytes)} this file can be`,
        'EFBIG',
      );
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await handle.read(buffer, read, size - read, read);
      if (bytesRead === 0) break; // shrank while read: what is there
      read += bytesRead;
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The run folder itself must be a folder, not a link to one (a listing or a resume would follow it anywhere). */
export async function checkRunFolder(runDir: string): Promise<void> {
  const info = await lstat(runDir);
  if (info.isSymbolicLink())
    throw new RunFileRefused(
      `${runDir} is a symbolic link; a run folder is never followed through a link (open the folder it points to)`,
      'ELOOP',
    );
  if (!info.isDirectory())
    throw new RunFileRefused(`${runDir} is ${describeFileKind(info)}, not a run folder`, 'ENOTDIR');
}

/** `relative` resolved inside `root`, or undefined when it leaves it (`..`, an absolute path). */
export function insideFolder(root: string, relative: string): { path: string; parts: string[] } | undefined {
  const path = resolve(root, relative);
  const inside = relativePath(resolve(root), path);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return { path, parts: inside.split(sep) };
}

/**
 * Creates `root` (in a folder that exists) and the folders of `parts` (the last part is the file)
 * one at a time below it; each one that exists must be a real folder, so a link planted anywhere
 * on the way is refused before anything is made through it.
 */
export async function makeFoldersWithoutLinks(root: string, parts: readonly string[]): Promise<void> {
  let folder = root;
  for (const part of ['', ...parts.slice(0, -1)]) {
    folder = part === '' ? root : join(folder, part);
    try {
      await mkdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await requireRealFolder(folder);
  }
}

async function requireRealFolder(folder: string): Promise<void> {
  const info = await lstat(folder);
  if (info.isSymbolicLink())
    throw new RunFileRefused(
      `${folder} is a symbolic link (it leads outside the run folder); it is not followed`,
      'ELOOP',
    );
  if (!info.isDirectory()) throw new RunFileRefused(`${folder} is ${describeFileKind(info)}, not a folder`, 'ENOTDIR');
}

/**
 * A file the results panel may open from a record (a cell's log): inside the run folder, no link
 * on the way (the run folder's own folders and the file), a regular file. The path, or why not.
 * A log that does not exist (removed, or never written) keeps its path: the editor says it is missing.
 */
export async function runFolderFileToOpen(
  runDir: string,
  relative: string,
): Promise<{ path: string } | { refused: string }> {
  const inside = insideFolder(runDir, relative);
  if (!inside) return { refused: `${relative} is outside the run folder` };
  try {
    await checkRunFolder(runDir);
    let folder = resolve(runDir);
    for (const part of inside.parts.slice(0, -1)) {
      folder = join(folder, part);
      await requireRealFolder(folder);
    }
    const info = await lstat(inside.path);
    if (info.isSymbolicLink())
      return { refused: `${relative} is a symbolic link; files of a run folder are never followed` };
    if (!info.isFile()) return { refused: `${relative} is ${describeFileKind(info)}, not a regular file` };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: inside.path };
    return {
      refused:
        error instanceof RunFileRefused ? error.message : `${relative} cannot be opened: ${(error as Error).message}`,
    };
  }
  return { path: inside.path };
}

/** What to do about a run-folder file that cannot be read, by cause. */
export function readFailureAction(error: unknown): string {
  if (error instanceof RunFileRefused)
    return 'Results are read only from regular files inside the run folder: open the folder the results really are in, or replace the link or special file with the file itself.';
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'Check the permissions of the run folder.';
  if (code === 'EISDIR') return 'Give the path of a run folder or of its results.jsonl.';
  return 'Check the run folder and its disk, then try again.';
}

export function describeSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
