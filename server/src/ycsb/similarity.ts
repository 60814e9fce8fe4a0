// Did-you-mean suggestions: the closest candidate by edit distance, ignoring letter case,
// provided it is close enough to be a plausible typo.

/** Levenshtein distance with adjacent transpositions (optimal string alignment), bounded by `limit`. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, previous2[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length]!;
}

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
