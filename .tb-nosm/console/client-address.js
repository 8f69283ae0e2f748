import { isIP } from "node:net";
function plain(address) {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}
function clientAddress(request, trusted) {
  const socket = plain(request.socket.remoteAddress ?? "unknown");
  if (!trusted.some((proxy) => plain(proxy) === socket)) return socket;
  const header = request.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : header ?? "").split(",").at(-1)?.trim();
  return forwarded !== void 0 && isIP(forwarded) !== 0 ? plain(forwarded) : socket;
}
export {
  clientAddress
};
