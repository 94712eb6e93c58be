// Previews of Word (.docx) and Excel (.xlsx) files, loaded only when one is opened. docx: mammoth turns the
// document into HTML (images inline as data: URLs, no file outside the document read), sanitised like a note.
// xlsx: read-excel-file reads the cells (values only, never formulas run); one sheet shown as a table, a picker
// when there are several, at most MAX_ROWS rows.
import mammoth from "mammoth";
import readXlsxFile from "read-excel-file/browser";
import DOMPurify from "dompurify";
import { el, clear } from "../dom.js";
import { t } from "../i18n.js";

const MAX_ROWS = 1000;

/** The .docx in `buffer` as sanitised HTML inside a <div>. */
export async function docxPreview(buffer) {
  const { value } = await mammoth.convertToHtml({ arrayBuffer: buffer });
  const body = el("div.docx-body.markdown-body");
  body.innerHTML = DOMPurify.sanitize(value, {
    SANITIZE_NAMED_PROPS: true, FORBID_ATTR: ["style"], FORBID_TAGS: ["style", "form", "input", "button"],
  });
  for (const a of body.querySelectorAll("a[href]")) {
    if (!a.getAttribute("href").startsWith("#")) { a.target = "_blank"; a.rel = "noopener noreferrer"; }
  }
  if (!body.textContent.trim() && !body.querySelector("img")) return el("p.muted", t("viewer.emptyDocument"));
  return body;
}

const column = (i) => (i < 26 ? "" : column(Math.floor(i / 26) - 1)) + String.fromCharCode(65 + (i % 26));

function cellText(v) {
  if (v == null) return "";
  if (v instanceof Date) {
    const iso = v.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
  }
  return String(v);
}

function sheetTable(data) {
  const width = Math.max(0, ...data.slice(0, MAX_ROWS).map((r) => r.length));
  if (!data.length || !width) return el("p.muted", t("viewer.emptySheet"));
  const rows = data.slice(0, MAX_ROWS);
  return el("div.csv-wrap.xlsx-wrap",
    data.length > MAX_ROWS ? el("p.notice", { role: "note" }, t("viewer.rowsCapped", { n: MAX_ROWS, total: data.length })) : null,
    el("table.csv-table.xlsx-table",
      el("thead", el("tr", el("th.row-num", { scope: "col" }, el("span.visually-hidden", t("viewer.row"))),
        Array.from({ length: width }, (_, i) => el("th", { scope: "col" }, column(i))))),
      el("tbody", rows.map((r, i) => el("tr", el("th.row-num", { scope: "row" }, String(i + 1)),
        Array.from({ length: width }, (_, j) => el("td", typeof r[j] === "number" ? { class: "num" } : null, cellText(r[j]))))))));
}

/** The .xlsx in `buffer`: its first sheet as a table, with a sheet picker when there are several. */
export async function xlsxPreview(buffer) {
  const sheets = await readXlsxFile(buffer);
  if (!sheets.length) return el("p.muted", t("viewer.emptySheet"));
  const box = el("div.xlsx-sheet");
  const show = (i) => clear(box, sheetTable(sheets[i].data));
  show(0);
  if (sheets.length === 1) return el("div.xlsx", box);
  const picker = el("select", { id: "xlsx-sheet" },
    sheets.map((s, i) => el("option", { value: String(i) }, s.sheet)));
  picker.addEventListener("change", () => show(Number(picker.value)));
  return el("div.xlsx", el("label.xlsx-picker", el("span", t("viewer.sheet")), picker), box);
}
