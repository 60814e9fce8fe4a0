// Raw logs live in logs/<folder>/ per cell. A cell id grows with every axis and value and can
// exceed a file name's 255 bytes (ENAMETOOLONG), so the folder is a readable prefix of the id
// plus a short hash of the whole id: stable (resume and readers find the same folder), short,
// distinct per id. The full key stays in the cell's record; logs are listed there by path.
import { createHash } from 'node:crypto';

const prefixLength = 48;

export function logFolderName(cellId: string): string {
  const readable = cellId
    .replace(/[^A-Za-z0-9._=~-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, prefixLength);
  const hash = createHash('sha256').update(cellId).digest('hex').slice(0, 12);
  return `${readable}-${hash}`;
}
