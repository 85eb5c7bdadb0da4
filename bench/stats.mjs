// Small statistics shared by the benchmark scripts.

/** The median of a list of numbers (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A seeded pseudo-random generator (mulberry32), so a bootstrap gives the same interval for the
 * same measurements.
 */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 95% bootstrap interval of `statistic(lists)`, where `lists[k][i]` were measured together (one
 * round of side-by-side runs): rounds are resampled whole, so drift that hit every run of a round
 * stays cancelled. `statistic` gets resampled lists of the same shape. Returns `[low, high]`.
 */
export function pairedInterval(lists, statistic, { resamples = 2000, seed = 1 } = {}) {
  const n = lists[0]?.length ?? 0;
  if (n === 0 || lists.some((list) => list.length !== n))
    throw new Error('pairedInterval: needs lists of the same, non-zero length');
  const next = random(seed);
  const values = new Array(resamples);
  const samples = lists.map(() => new Array(n));
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const pick = Math.floor(next() * n);
      for (let k = 0; k < lists.length; k++) samples[k][i] = lists[k][pick];
    }
    values[r] = statistic(samples);
  }
  values.sort((x, y) => x - y);
  return [values[Math.floor(resamples * 0.025)], values[Math.ceil(resamples * 0.975) - 1]];
}

/**
 * A 95% bootstrap interval for `median(a) / median(b)`, where `a[i]` and `b[i]` were measured as
 * a pair (side by side): pairs are resampled together, so drift that hit both sides of a pair
 * stays cancelled. Returns `[low, high]`.
 */
export function pairedRatioInterval(a, b, options) {
  if (a.length !== b.length || a.length === 0)
    throw new Error('pairedRatioInterval: needs two lists of the same, non-zero length');
  return pairedInterval([a, b], ([x, y]) => median(x) / median(y), options);
}

/** `median(a[i] - b[i])`: the median of the differences within each pair. */
export function medianDifference(a, b) {
  return median(a.map((value, i) => value - b[i]));
}
