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
 * A 95% bootstrap interval for `median(a) / median(b)`, where `a[i]` and `b[i]` were measured as
 * a pair (side by side): pairs are resampled together, so drift that hit both sides of a pair
 * stays cancelled. Returns `[low, high]`.
 */
export function pairedRatioInterval(a, b, { resamples = 2000, seed = 1 } = {}) {
  if (a.length !== b.length || a.length === 0)
    throw new Error('pairedRatioInterval: needs two lists of the same, non-zero length');
  const next = random(seed);
  const n = a.length;
  const ratios = new Array(resamples);
  const sampleA = new Array(n);
  const sampleB = new Array(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const pick = Math.floor(next() * n);
      sampleA[i] = a[pick];
      sampleB[i] = b[pick];
    }
    ratios[r] = median(sampleA) / median(sampleB);
  }
  ratios.sort((x, y) => x - y);
  return [ratios[Math.floor(resamples * 0.025)], ratios[Math.ceil(resamples * 0.975) - 1]];
}
