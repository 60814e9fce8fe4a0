// Did-you-mean suggestions shared by every language: optimal-string-alignment distance
// (Levenshtein plus adjacent transpositions), bounded so a long garbage word costs little.

export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previousPrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        value = Math.min(value, previousPrevious[j - 2]! + 1);
      }
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previousPrevious = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `count` candidates close to `word`, best first (case-insensitive). */
export function closestMatches(word: string, candidates: readonly string[], count = 3): string[] {
  const target = word.toUpperCase();
  if (target.length === 0 || target.length > 64) return [];
  const limit = Math.max(2, Math.floor(target.length / 3));
  const scored: { candidate: string; score: number }[] = [];
  for (const candidate of candidates) {
    const upper = candidate.toUpperCase();
    let score = editDistance(target, upper, limit);
    // A missing or extra word part (EF_POLL_US vs EF_POLL_USEC) is a near miss too.
    if (
      score > limit &&
      (upper.startsWith(target) || target.startsWith(upper)) &&
      Math.min(upper.length, target.length) >= 6
    )
      score = limit;
    if (score <= limit) scored.push({ candidate, score });
  }
  scored.sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate));
  return scored.slice(0, count).map((entry) => entry.candidate);
}

/** The single closest candidate (case-insensitive), if it is close enough to be a plausible typo. */
export function closest<T>(input: string, candidates: Iterable<T>, name: (candidate: T) => string): T | undefined {
  const wanted = input.toLowerCase();
  if (wanted.length === 0) return undefined;
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best: T | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, name(candidate).toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
