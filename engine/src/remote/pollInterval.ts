// How long to wait between two looks at something the engine cannot be told about: the
// item count (a stats sample, about every second), the stats scrape behind the write queues (every
// second on the lab, about every 10 s from 7.0), a bucket's drop and warm-up, Couchbase's REST port
// after a start, its processes gone after a stop. A fixed 250-500 ms interval made each wait
// overshoot by half of it on average, several times per cell; looking often at first and less as
// the wait drags on keeps that overshoot small for the usual short waits without hammering a node
// that takes long. A REST look is a small GET (a few ms); an SSH look passes a larger `fastestMs`. Pure.

/** The pause before the next look, `elapsedMs` after the wait began. */
export function pollIntervalMs(elapsedMs: number, fastestMs = 50): number {
  if (elapsedMs < 3_000) return fastestMs;
  if (elapsedMs < 15_000) return Math.max(fastestMs, 200);
  return Math.max(fastestMs, 500);
}
