// A CSV file as a table: RFC 4180 parsing (quotes, "" escapes, newlines in quotes), sortable columns
// (click or Enter on a header; numbers sort as numbers), at most MAX_ROWS rows shown.
import { el, clear } from "./dom.js";
import { t } from "./i18n.js";

const MAX_ROWS = 2000;

export function parseCsv(text) {
  const sep = sniff(text);
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === sep) { row.push(field); field = ""; }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field); rows.push(row); row = []; field = "";
    } else field += c;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows.filter((r) => r.length > 1 || r[0] !== "");
}

function sniff(text) {
  const line = text.slice(0, text.indexOf("\n") >>> 0 || 2000);
  const counts = [",", ";", "\t"].map((s) => [s, line.split(s).length]);
  return counts.sort((a, b) => b[1] - a[1])[0][0];
}

const num = (s) => (/^\s*-?[\d\s]*[.,]?\d+\s*$/.test(s) ? Number(s.replace(/\s/g, "").replace(",", ".")) : NaN);

export function csvTable(text) {
  const rows = parseCsv(text);
  if (!rows.length) return el("p.muted", t("csv.empty"));
  const [head, ...body] = rows;
  const tbody = el("tbody");
  const sort = { col: -1, dir: 1 };
  // Sorting orders every row, then the first MAX_ROWS are shown (not only the rows that were on screen).
  const draw = () => clear(tbody, body.slice(0, MAX_ROWS).map((r) => el("tr", head.map((_, i) => el("td", r[i] ?? "")))));
  const ths = head.map((h, i) => {
    const th = el("th", { scope: "col", tabindex: "0", "aria-sort": "none", title: t("csv.sort") }, h);
    const act = () => {
      sort.dir = sort.col === i ? -sort.dir : 1;
      sort.col = i;
      const numeric = body.every((r) => !r[i] || !Number.isNaN(num(r[i])));
      body.sort((a, b) => sort.dir * (numeric ? (num(a[i] || "0") - num(b[i] || "0")) : String(a[i] ?? "").localeCompare(String(b[i] ?? ""), undefined, { numeric: true })));
      ths.forEach((x, j) => x.setAttribute("aria-sort", j === i ? (sort.dir > 0 ? "ascending" : "descending") : "none"));
      draw();
    };
    th.addEventListener("click", act);
    th.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } });
    return th;
  });
  draw();
  return el("div.csv-wrap",
    body.length > MAX_ROWS ? el("p.notice", { role: "note" }, t("csv.capped", { n: MAX_ROWS, total: body.length })) : null,
    el("table.csv-table", el("thead", el("tr", ths)), tbody));
}
