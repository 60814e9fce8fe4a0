// Results writes with a fault on demand (results/resultsStore.ts' ResultsIo seam): real files on
// the real file system, where `writeFor` may replace a handle's write (a full disk, a short write)
// for the paths it chooses; every other handle method is the real one.
import { open, type FileHandle } from 'node:fs/promises';
import type { ResultsHandle, ResultsIo } from '../../engine/src/results/resultsStore';

export function faultyResultsIo(
  writeFor: (path: string, handle: FileHandle) => ResultsHandle['write'] | undefined,
): ResultsIo {
  return {
    async open(path, flags) {
      const handle = await open(path, flags, 0o644);
      const write = writeFor(path, handle);
      if (!write) return handle;
      return {
        write,
        read: handle.read.bind(handle),
        sync: () => handle.sync(),
        close: () => handle.close(),
        truncate: (length?: number) => handle.truncate(length),
        stat: (() => handle.stat()) as FileHandle['stat'],
      };
    },
  };
}
