/** The daemon's beat: every duty runs on a multiple of it (10 s, as `status` and the workers hash expect). */
export const BEAT_MS = 10_000;
