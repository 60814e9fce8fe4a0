// The EF_* settings memcached really runs with against the profile's analysis (REAL-LAB O4):
// `onload_set` only sets what is still unset, so the SSH session, /etc/openonload.sh,
// ~/.openonload.sh or an app handler may win over the profile. Pure.

export interface EnvironmentDifference {
  name: string;
  /** What the profile's analysis expects; undefined: the profile does not set it. */
  profile?: string;
  /** What memcached runs with; undefined: not in its environment. */
  actual?: string;
}

/** Differences between the analysed profile settings (EF_* only) and memcached's EF_* environment. */
export function environmentDifferences(
  profile: Record<string, string>,
  actual: Record<string, string>,
): EnvironmentDifference[] {
  const names = new Set([...Object.keys(profile).filter((name) => name.startsWith('EF_')), ...Object.keys(actual)]);
  const out: EnvironmentDifference[] = [];
  for (const name of [...names].sort()) {
    const expected = profile[name];
    const seen = actual[name];
    if (expected === seen) continue;
    out.push({
      name,
      ...(expected !== undefined ? { profile: expected } : {}),
      ...(seen !== undefined ? { actual: seen } : {}),
    });
  }
  return out;
}

export function describeDifferences(differences: EnvironmentDifference[]): string {
  return differences
    .map((entry) => `${entry.name}: profile ${entry.profile ?? '(unset)'}, memcached ${entry.actual ?? '(unset)'}`)
    .join('; ');
}
