/**
 * The largest k in 2..count for which `fits(k)` holds, or 1 when none does, for a `fits` that holds up to
 * some k and never after (a larger k only adds entries to a message). Gallops to bracket that k with small,
 * cheap renders, then bisects: about 2·log2(count) calls.
 */
export function largestFitting(count: number, fits: (k: number) => boolean): number {
  let fitting = 1;
  let tooMany = count + 1;
  for (let probe = 2; probe < tooMany; probe *= 2) {
    if (fits(probe)) fitting = probe;
    else tooMany = probe;
  }
  while (tooMany - fitting > 1) {
    const middle = Math.floor((fitting + tooMany) / 2);
    if (fits(middle)) fitting = middle;
    else tooMany = middle;
  }
  return fitting;
}
