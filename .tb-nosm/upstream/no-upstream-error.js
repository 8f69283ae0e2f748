class NoUpstreamError extends Error {
  name = "NoUpstreamError";
  /** The config key whose absence this is. */
  path = "upstream";
  constructor() {
    super(
      "no upstream API configured: the config has no `upstream` section (this deployment reads the registers of `sources` only)"
    );
  }
}
function isNoUpstreamError(error) {
  return error instanceof NoUpstreamError;
}
export {
  NoUpstreamError,
  isNoUpstreamError
};
