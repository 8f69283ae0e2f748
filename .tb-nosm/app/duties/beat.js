const BEAT_MS = 1e4;
export {
  BEAT_MS
};
