// How long to wait between two polls of a value Couchbase refreshes on its own schedule (issue 24):
// the item count (a stats sample, about every second), the stats scrape behind the write queues
// (every second on the lab, about every 10 s from 7.0), a bucket's drop and warm-up. A fixed 500 ms
// interval made each wait overshoot by 250 ms on average, several times per cell; polling fast
// at first and slower as the wait drags on keeps that overshoot small for the usual short waits
// without hammering a node that takes long. Each poll is one small REST GET (a few ms). Pure.

/** The pause before the next poll, `elapsedMs` after the wait began. */
export function restPollIntervalMs(elapsedMs: number): number {
  if (elapsedMs < 3_000) return 50;
  if (elapsedMs < 15_000) return 200;
  return 500;
}
