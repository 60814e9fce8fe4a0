// Which of our languages a file is, from its name alone: the same rules as `contributes.languages`
// in package.json. Used by `lint`, and by the server when a client opens one of our files under a
// language id of its own (`sh` for a profile, `jproperties` for a workload).
export const onloadProfileLanguageId = 'onload-profile';
export const ycsbWorkloadLanguageId = 'ycsb-workload';

/** Path or URI path with forward slashes. */
export function languageOfFileName(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  const base = parts.at(-1) ?? '';
  if (/\.opf(-fragment)?$/.test(base)) return onloadProfileLanguageId;
  if (base.endsWith('.ycsb')) return ycsbWorkloadLanguageId;
  if (base.startsWith('workload') && parts.at(-2) === 'workloads') return ycsbWorkloadLanguageId;
  return undefined;
}
