import { createHash } from "node:crypto";
import { createServer } from "node:http";
import iconv from "iconv-lite";
const ISSUERS = [
  { isin: "NL0000000018", name: "Demo Lighting N.V." },
  { isin: "NL0000000026", name: "Demo Logistics N.V." },
  { isin: "GB0000000034", name: "DEMO TELECOM PLC" },
  { isin: "GB0000000042", name: "DEMO HOUSING PLC" }
];
const HOLDERS = ["Marshall Wace LLP", "Citadel Advisors LLC", "Millennium International Management LP"];
function dayOf(step) {
  return new Date(Date.UTC(2026, 8, 1 + step)).toISOString().slice(0, 10);
}
function afmFile(step) {
  const rows = ISSUERS.filter((i) => i.isin.startsWith("NL")).flatMap(
    (issuer, i) => HOLDERS.flatMap((holder, h) => {
      if ((step + h + i) % 3 === 0 && h === 2) return [];
      const value = (0.55 + 0.1 * h + 0.05 * ((step + i) % 4)).toFixed(2);
      return [`"${holder}";"${issuer.name}";"${issuer.isin}";"${value}";"${dayOf(step)} 00:00:00"`];
    })
  );
  const text = [
    '"Position holder";"Name of the issuer";"ISIN";"Net short position";"Position date"',
    ...rows,
    "",
    '"Disclaimer AFM CSV"',
    `"Date last update ${dayOf(step)}"`,
    ""
  ].join("\r\n");
  return iconv.encode(text, "windows-1252");
}
function anspFile(step) {
  const [d, m, y] = dayOf(step).split("-").reverse();
  const rows = ISSUERS.filter((i) => i.isin.startsWith("GB")).map((issuer, i) => {
    const value = (0.8 + 0.15 * ((step + 2 * i) % 3)).toFixed(2);
    return `${issuer.name},${issuer.isin},${value},${d}/${m}/${y}`;
  });
  const header = "Name of Company,International Securities Identification Number (ISIN),Aggregated net short position (%),Position date";
  return Buffer.from([header, ...rows, ""].join("\n"));
}
async function startRegisterReplay(stepMs) {
  let step = 0;
  const timer = setInterval(() => {
    step++;
  }, stepMs).unref();
  const server = createServer((request, response) => {
    const body = request.url === "/afm.csv" ? afmFile(step) : request.url === "/ansp.csv" ? anspFile(step) : null;
    if (body === null) {
      response.writeHead(404).end();
      return;
    }
    const etag = `"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"`;
    if (request.headers["if-none-match"] === etag) {
      response.writeHead(304, { etag }).end();
      return;
    }
    response.writeHead(200, { etag, "content-length": body.length }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  const url = (path) => `http://127.0.0.1:${port}${path}`;
  return {
    sources: [
      { name: "afm", kind: "afm-current", url: url("/afm.csv") },
      { name: "fca", kind: "uk-ansp-current", url: url("/ansp.csv") }
    ],
    close: () => new Promise((resolve) => {
      clearInterval(timer);
      server.closeAllConnections();
      server.close(() => resolve());
    })
  };
}
export {
  afmFile,
  anspFile,
  startRegisterReplay
};
