import { request } from "undici";
import { declaresTooLarge, readLimited } from "../upstream/read-body.js";
import { isRegisterReadError, RegisterReadError } from "./errors.js";
function conditionalHeaders(validators) {
  const headers = {};
  if (validators.etag !== void 0) headers["if-none-match"] = validators.etag;
  if (validators.lastModified !== void 0) headers["if-modified-since"] = validators.lastModified;
  return headers;
}
async function fetchRegister(url, validators, limits, dispatcher, post) {
  const signal = AbortSignal.timeout(limits.timeout);
  try {
    const response = await request(url, {
      method: post === void 0 ? "GET" : "POST",
      headers: {
        ...conditionalHeaders(validators),
        "accept-encoding": "identity",
        // The DataTables and w2ui endpoints answer only what looks like their page's own XHR.
        ...post === void 0 ? {} : {
          "content-type": "application/x-www-form-urlencoded; charset=UTF-8",
          "x-requested-with": "XMLHttpRequest"
        }
      },
      ...post === void 0 ? {} : { body: post.form },
      signal,
      headersTimeout: limits.timeout,
      bodyTimeout: limits.timeout,
      ...dispatcher === void 0 ? {} : { dispatcher }
    });
    return await outcomeOf(response, limits.maxBytes);
  } catch (error) {
    if (isRegisterReadError(error)) throw error;
    if (signal.aborted) throw new RegisterReadError("timeout", `no whole file within ${limits.timeout} ms`);
    throw new RegisterReadError("transport", "the request failed", { cause: error });
  }
}
async function outcomeOf(response, maxBytes) {
  const { statusCode, headers, body } = response;
  if (statusCode === 304) {
    await body.dump();
    return { status: "not-modified" };
  }
  if (statusCode < 200 || statusCode > 299) {
    await body.dump();
    throw new RegisterReadError("http-status", `HTTP ${statusCode}`);
  }
  if (declaresTooLarge(headers["content-length"], maxBytes)) {
    body.destroy();
    throw new RegisterReadError("too-large", `the file declares more than ${maxBytes} bytes`);
  }
  const read = await readLimited(body, maxBytes);
  if (!read.complete) throw new RegisterReadError("too-large", `the file is longer than ${maxBytes} bytes`);
  return {
    status: "fetched",
    bytes: read.bytes,
    contentType: header(headers["content-type"]),
    validators: validatorsOf(headers)
  };
}
function validatorsOf(headers) {
  const validators = {};
  const etag = header(headers.etag);
  const lastModified = header(headers["last-modified"]);
  if (etag !== void 0) validators.etag = etag;
  if (lastModified !== void 0) validators.lastModified = lastModified;
  return validators;
}
function header(value) {
  return Array.isArray(value) ? value[0] : value;
}
export {
  conditionalHeaders,
  fetchRegister
};
