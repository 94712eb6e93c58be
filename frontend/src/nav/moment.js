// moment.js-compatible date formatting and parsing for daily notes and templates (obsidian-app.md §3.8: the
// tokens Obsidian's users write in .obsidian/daily-notes.json and templates.json). Pure, node-tested
// (tests/web/js/nav-moment.test.mjs). Month and day names follow the app language through Intl; locale weeks
// follow moment's locales: en weeks start on Sunday with 1 January in week 1, fr weeks are ISO weeks.

const WEEKS = { en: { dow: 0, doy: 6 }, fr: { dow: 1, doy: 4 } }; // moment's locale week rules
const ISO = { dow: 1, doy: 4 };

const nameCache = new Map();
/** Month or weekday names in `lang`: kind "month"|"weekday", width "long"|"short"; [12] or [7] (Sunday first). */
function names(lang, kind, width) {
  const key = `${lang}|${kind}|${width}`;
  if (!nameCache.has(key)) {
    const fmt = new Intl.DateTimeFormat(lang, { [kind]: width, timeZone: "UTC" });
    const list = kind === "month"
      ? Array.from({ length: 12 }, (_, m) => fmt.format(Date.UTC(2021, m, 1)))
      : Array.from({ length: 7 }, (_, d) => fmt.format(Date.UTC(2021, 0, 3 + d))); // 3 Jan 2021 was a Sunday
    // moment's short names carry no trailing dot in en; fr's do ("janv."), as Intl gives them
    nameCache.set(key, list);
  }
  return nameCache.get(key);
}

const pad = (n, w = 2) => String(Math.abs(n)).padStart(w, "0");
const dayOfYear = (y, m, d) => Math.round((Date.UTC(y, m, d) - Date.UTC(y, 0, 1)) / 864e5) + 1;
const daysInYear = (y) => ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 366 : 365);

/** moment's firstWeekOffset: where week 1 of `year` starts, relative to 1 January (days). */
function firstWeekOffset(year, dow, doy) {
  const fwd = 7 + dow - doy;
  const fwdlw = (7 + new Date(Date.UTC(year, 0, fwd)).getUTCDay() - dow) % 7;
  return -fwdlw + fwd - 1;
}
const weeksInYear = (y, dow, doy) => (daysInYear(y) - firstWeekOffset(y, dow, doy) + firstWeekOffset(y + 1, dow, doy)) / 7;

/** {week, year} of a date under the week rule {dow, doy} (moment's weekOfYear). */
export function weekOfYear(y, m, d, { dow, doy }) {
  const offset = firstWeekOffset(y, dow, doy);
  const week = Math.floor((dayOfYear(y, m, d) - offset - 1) / 7) + 1;
  if (week < 1) return { week: week + weeksInYear(y - 1, dow, doy), year: y - 1 };
  if (week > weeksInYear(y, dow, doy)) return { week: week - weeksInYear(y, dow, doy), year: y + 1 };
  return { week, year: y };
}

function ordinal(n, lang) {
  if (lang === "fr") return `${n}${n === 1 ? "er" : ""}`;
  const b = n % 10;
  const suffix = Math.floor((n % 100) / 10) === 1 ? "th" : b === 1 ? "st" : b === 2 ? "nd" : b === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

// longest first, so "MMMM" is read before "MM" and "M"
const TOKEN = /\[([^\]]*)\]|YYYYYY|YYYY|YY|Y|Qo|Q|MMMM|MMM|MM|Mo|M|DDDD|DDDo|DDD|Do|DD|D|dddd|ddd|dd|do|d|E|e|gggg|gg|GGGG|GG|wo|ww|w|Wo|WW|W|HH|H|hh|h|kk|k|mm|m|ss|s|SSS|SS|S|A|a|ZZ|Z|X|x/g;

/**
 * `date` (a Date, read in local time as moment does) formatted with the moment.js `format`; `lang` "en" or
 * "fr" for names, ordinals and locale weeks. Unknown letters are kept as they are; `[text]` is literal.
 */
export function formatDate(date, format, lang = "en") {
  const y = date.getFullYear(), mo = date.getMonth(), d = date.getDate(), wd = date.getDay();
  const H = date.getHours(), mi = date.getMinutes(), s = date.getSeconds(), ms = date.getMilliseconds();
  const locale = WEEKS[lang] || WEEKS.en;
  const lw = () => weekOfYear(y, mo, d, locale);
  const iw = () => weekOfYear(y, mo, d, ISO);
  const tz = () => { const off = -date.getTimezoneOffset(); return [off >= 0 ? "+" : "-", pad(Math.floor(Math.abs(off) / 60)), pad(Math.abs(off) % 60)]; };
  const h12 = H % 12 || 12;
  const f = {
    YYYYYY: () => (y < 0 ? "-" : "+") + pad(y, 6), YYYY: () => pad(y, 4), YY: () => pad(y % 100), Y: () => String(y),
    Q: () => String(Math.floor(mo / 3) + 1), Qo: () => ordinal(Math.floor(mo / 3) + 1, lang),
    M: () => String(mo + 1), Mo: () => ordinal(mo + 1, lang), MM: () => pad(mo + 1),
    MMM: () => names(lang, "month", "short")[mo], MMMM: () => names(lang, "month", "long")[mo],
    D: () => String(d), Do: () => ordinal(d, lang), DD: () => pad(d),
    DDD: () => String(dayOfYear(y, mo, d)), DDDo: () => ordinal(dayOfYear(y, mo, d), lang), DDDD: () => pad(dayOfYear(y, mo, d), 3),
    d: () => String(wd), do: () => ordinal(wd, lang), dd: () => names(lang, "weekday", "short")[wd].slice(0, 2),
    ddd: () => names(lang, "weekday", "short")[wd], dddd: () => names(lang, "weekday", "long")[wd],
    e: () => String((wd - locale.dow + 7) % 7), E: () => String(wd || 7),
    w: () => String(lw().week), wo: () => ordinal(lw().week, lang), ww: () => pad(lw().week),
    W: () => String(iw().week), Wo: () => ordinal(iw().week, lang), WW: () => pad(iw().week),
    gg: () => pad(lw().year % 100), gggg: () => pad(lw().year, 4), GG: () => pad(iw().year % 100), GGGG: () => pad(iw().year, 4),
    H: () => String(H), HH: () => pad(H), h: () => String(h12), hh: () => pad(h12), k: () => String(H || 24), kk: () => pad(H || 24),
    m: () => String(mi), mm: () => pad(mi), s: () => String(s), ss: () => pad(s),
    S: () => String(Math.floor(ms / 100)), SS: () => pad(Math.floor(ms / 10)), SSS: () => pad(ms, 3),
    A: () => (H < 12 ? "AM" : "PM"), a: () => (H < 12 ? "am" : "pm"),
    Z: () => { const [sg, hh, mm] = tz(); return `${sg}${hh}:${mm}`; }, ZZ: () => tz().join(""),
    X: () => String(Math.floor(date.getTime() / 1000)), x: () => String(date.getTime()),
  };
  return String(format).replace(TOKEN, (tok, literal) => (literal !== undefined ? literal : f[tok]()));
}

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Read `text` written with `format` back into a Date (local midnight, or the time when the format has one);
 * null when it does not fit. Only the date fields are read (year, month, day, hours, minutes, seconds); names
 * and weekdays must match the language. A result is checked by formatting it again (so "2024-02-30" is null).
 */
export function parseDate(text, format, lang = "en") {
  const fields = [];
  const group = (re, set) => { fields.push(set); return `(${re})`; };
  const namesRe = (list) => list.map(esc).sort((a, b) => b.length - a.length).join("|");
  const src = String(format).replace(TOKEN, (tok, literal) => {
    if (literal !== undefined) return esc(literal);
    switch (tok) {
      case "YYYY": return group("\\d{4}", (v, o) => { o.y = +v; });
      case "YY": return group("\\d{2}", (v, o) => { o.y = 2000 + +v; });
      case "MM": case "M": return group(tok === "MM" ? "\\d{2}" : "\\d{1,2}", (v, o) => { o.m = +v - 1; });
      case "MMM": case "MMMM": {
        const list = names(lang, "month", tok === "MMM" ? "short" : "long");
        return group(namesRe(list), (v, o) => { o.m = list.findIndex((n) => n.toLowerCase() === v.toLowerCase()); });
      }
      case "DD": case "D": return group(tok === "DD" ? "\\d{2}" : "\\d{1,2}", (v, o) => { o.d = +v; });
      case "Do": return group("\\d{1,2}(?:st|nd|rd|th|er)?", (v, o) => { o.d = parseInt(v, 10); });
      case "HH": case "H": return group("\\d{1,2}", (v, o) => { o.H = +v; });
      case "mm": case "m": return group("\\d{1,2}", (v, o) => { o.mi = +v; });
      case "ss": case "s": return group("\\d{1,2}", (v, o) => { o.s = +v; });
      default: return group("[^/]*?", () => {}); // names, weeks, …: checked by the round trip below
    }
  });
  const m = new RegExp(`^${src}$`, "i").exec(String(text));
  if (!m) return null;
  const o = { y: 1970, m: 0, d: 1, H: 0, mi: 0, s: 0 };
  fields.forEach((set, i) => set(m[i + 1], o));
  if (o.m < 0) return null;
  const date = new Date(o.y, o.m, o.d, o.H, o.mi, o.s);
  return formatDate(date, format, lang).toLowerCase() === String(text).toLowerCase() ? date : null;
}
