import { createServer } from "node:http";
const accepted = (status) => status >= 200 && status < 300;
async function startSlackCapture(options = {}) {
  const posts = [];
  const scripted = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const reply = scripted.shift() ?? options.replyTo?.(Buffer.concat(chunks)) ?? { status: 200, body: "ok" };
      let payload;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        payload = Buffer.concat(chunks).toString("utf8");
      }
      const post = { path: request.url ?? "/", payload, receivedAt: /* @__PURE__ */ new Date(), status: reply.status };
      posts.push(post);
      const answer = () => {
        response.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
        response.end(reply.body ?? (reply.status === 200 ? "ok" : "error"));
        if (accepted(reply.status)) options.onPost?.(post);
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/services/T000/B000/demo`,
    posts,
    delivered: () => posts.filter((p) => accepted(p.status)),
    script: (...replies) => scripted.push(...replies),
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    })
  };
}
export {
  startSlackCapture
};
