const CONSOLE_CSS = `:root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--accent:#0969da;--bad:#cf222e;--warn:#9a6700;--ok:#1a7f37;
--s0:#0969da;--s1:#cf222e;--s2:#1a7f37;--s3:#8250df;--s4:#bc4c00;--s5:#0a7a8f;--s6:#bf3989;--s7:#6e7781;--s8:#7d8a00;--s9:#953800}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;--accent:#4493f8;--bad:#f85149;--warn:#d29922;--ok:#3fb950;
--s0:#4493f8;--s1:#f85149;--s2:#3fb950;--s3:#ab7df8;--s4:#f0883e;--s5:#39c5cf;--s6:#f778ba;--s7:#9198a1;--s8:#c9d14a;--s9:#e3b341}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
header{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px;padding:8px 16px;border-bottom:1px solid var(--line);background:var(--panel)}
.brand{font-weight:700}
nav{display:flex;flex-wrap:wrap;gap:4px 12px}
nav a{color:var(--fg);text-decoration:none;padding:2px 4px;border-radius:4px}
nav a[aria-current=page]{background:var(--accent);color:var(--bg)}
.signout{margin-left:auto}
main{padding:8px 16px 32px;max-width:1200px}
h1{font-size:20px;margin:8px 0 12px}
h2{font-size:16px;margin:20px 0 8px}
a{color:var(--accent)}
table{border-collapse:collapse;width:100%;margin:4px 0 12px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.muted{color:var(--muted)}
.bad{color:var(--bad)}.warn{color:var(--warn)}.ok{color:var(--ok)}
.notice{padding:6px 10px;border-left:4px solid var(--accent);background:var(--panel)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px}
.card{border:1px solid var(--line);border-radius:6px;padding:8px 12px;background:var(--panel)}
.card h2{margin:0 0 6px}
.big{font-size:22px;font-weight:600}
form.inline{display:inline}
button{font:inherit;padding:3px 10px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
button:hover{border-color:var(--accent)}
input,select{font:inherit;padding:3px 6px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
fieldset{border:1px solid var(--line);border-radius:6px;display:flex;flex-wrap:wrap;gap:8px;align-items:end}
label{display:flex;flex-direction:column;gap:2px;color:var(--muted)}
label.check{flex-direction:row;align-items:center}
ul.lines{margin:0;padding-left:16px}
svg.chart{width:100%;height:auto;max-height:420px;display:block}
svg.bars{width:100%;max-width:560px;height:auto;display:block}
.chart .grid{stroke:var(--line);stroke-width:1}
.chart .axis{stroke:var(--muted);stroke-width:1}
.tick,.bar-label{fill:var(--muted);font-size:11px}
.axis-label{fill:var(--fg);font-size:12px;font-weight:600}
.bar{fill:var(--accent)}.bar.left{fill:var(--line)}
.line{fill:none;stroke-width:2}
.chart circle.off{fill:var(--bg);stroke-width:2;stroke-dasharray:none}.chart .today{font-style:italic}
.s0{stroke:var(--s0)}.s1{stroke:var(--s1)}.s2{stroke:var(--s2)}.s3{stroke:var(--s3)}.s4{stroke:var(--s4)}
.s5{stroke:var(--s5)}.s6{stroke:var(--s6)}.s7{stroke:var(--s7)}.s8{stroke:var(--s8)}.s9{stroke:var(--s9)}
.d1{stroke-dasharray:6 3}.d2{stroke-dasharray:2 3}.d3{stroke-dasharray:8 3 2 3}.d4{stroke-dasharray:1 5}
ul.legend{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:2px 12px}
ul.legend li{display:flex;align-items:center;gap:6px}
svg.swatch{width:24px;height:8px;flex:none}
.pill{display:inline-block;padding:0 6px;border-radius:9px;border:1px solid var(--line);font-size:12px}
code{overflow-wrap:anywhere}
@media (max-width:720px){main{padding:8px 10px 24px}
table{display:block;overflow-x:auto;max-width:100%}
th,td{white-space:nowrap}
th:first-child,td:first-child{position:sticky;left:0;z-index:1;background:var(--bg);box-shadow:1px 0 0 var(--line);white-space:normal;min-width:7em;max-width:42vw}
.chart-box{overflow-x:auto}.chart-box svg.chart{min-width:560px}
fieldset{min-width:0}fieldset label,fieldset input,fieldset select{max-width:100%}
ul.legend{grid-template-columns:1fr}}
`;
const CONSOLE_JS = `(() => {
  const main = document.getElementById('main');
  const every = Number(main && main.dataset.refresh);
  if (!main || !every) return;
  const busy = () => main.contains(document.activeElement) && document.activeElement.matches('input,select,textarea');
  setInterval(async () => {
    if (document.hidden || busy()) return;
    try {
      const response = await fetch(location.href, { headers: { 'x-requested-with': 'refresh' } });
      if (!response.ok) return;
      const next = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('main');
      if (next) main.replaceChildren(...next.childNodes);
    } catch {}
  }, every * 1000);
})();
`;
export {
  CONSOLE_CSS,
  CONSOLE_JS
};
