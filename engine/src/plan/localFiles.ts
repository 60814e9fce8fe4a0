// A plan's own local files (the plan itself, its workload) are read the way the language services
// read the files they are pointed at (server/src/common/boundedRead.ts): only a regular file within
// the bound, never blocking. A plan whose workload was a FIFO hung the run, the dry run and
// pre-flight at their first read, and a device (`/dev/zero`) grew them without end; such a file is
// now refused with what it is.
import { describeUnreadable, readBoundedText } from '../../../server/src/common/boundedRead';

export type LocalFileRead = { ok: true; text: string; bytes: Buffer } | { ok: false; problem: string };

/** The file's text and bytes, or why it is not read ('a FIFO (named pipe), not a regular file'). */
export async function readLocalFile(path: string): Promise<LocalFileRead> {
  const read = await readBoundedText(path);
  return read.kind === 'text'
    ? { ok: true, text: read.text, bytes: read.bytes }
    : { ok: false, problem: describeUnreadable(read) };
}
