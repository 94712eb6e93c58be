// nav/moment.js: moment.js's format tokens (obsidian-app.md §3.8), checked against moment's own outputs.
import { test } from "node:test";
import assert from "node:assert/strict";

const { formatDate, parseDate, weekOfYear } = await import("../../../frontend/src/nav/moment.js");

const d = new Date(2024, 0, 5, 14, 7, 9, 45); // Friday 5 January 2024, 14:07:09.045 local

test("date tokens", () => {
  assert.equal(formatDate(d, "YYYY-MM-DD"), "2024-01-05");
  assert.equal(formatDate(d, "YY M MM MMM MMMM"), "24 1 01 Jan January");
  assert.equal(formatDate(d, "D DD Do d dd ddd dddd"), "5 05 5th 5 Fr Fri Friday");
  assert.equal(formatDate(d, "DDD DDDD Q"), "5 005 1");
  assert.equal(formatDate(new Date(2024, 11, 31), "DDDD"), "366");
  assert.equal(formatDate(new Date(2023, 0, 1), "Do"), "1st");
  assert.equal(formatDate(new Date(2023, 0, 2), "Do"), "2nd");
  assert.equal(formatDate(new Date(2023, 0, 3), "Do"), "3rd");
  assert.equal(formatDate(new Date(2023, 0, 11), "Do"), "11th");
  assert.equal(formatDate(new Date(2023, 0, 22), "Do"), "22nd");
});

test("time tokens", () => {
  assert.equal(formatDate(d, "H HH h hh A a m mm s ss SSS"), "14 14 2 02 PM pm 7 07 9 09 045");
  assert.equal(formatDate(new Date(2024, 0, 5, 0, 5), "h A k"), "12 AM 24");
  assert.equal(formatDate(d, "x"), String(d.getTime()));
  assert.equal(formatDate(d, "X"), String(Math.floor(d.getTime() / 1000)));
});

test("literals in brackets and unknown letters are kept", () => {
  assert.equal(formatDate(d, "YYYY-[W]WW"), "2024-W01");
  assert.equal(formatDate(d, "[Today is] dddd"), "Today is Friday");
  assert.equal(formatDate(d, "YYYY/MMMM/YYYY-MMM-DD"), "2024/January/2024-Jan-05");
});

test("ISO and locale weeks as moment computes them", () => {
  // 1 Jan 2021 (Friday): ISO week 53 of 2020; en (Sunday weeks, 1 Jan in week 1): week 1 of 2021
  const jan1 = new Date(2021, 0, 1);
  assert.equal(formatDate(jan1, "GGGG-[W]WW"), "2020-W53");
  assert.equal(formatDate(jan1, "gggg-[w]ww", "en"), "2021-w01");
  assert.equal(formatDate(jan1, "gggg-[w]ww", "fr"), "2020-w53");
  // 31 Dec 2024 (Tuesday): ISO week 1 of 2025; en: week 1 of 2025 too
  const dec31 = new Date(2024, 11, 31);
  assert.equal(formatDate(dec31, "GGGG-WW"), "2025-01");
  assert.equal(formatDate(dec31, "gggg-ww", "en"), "2025-01");
  assert.deepEqual(weekOfYear(2024, 5, 15, { dow: 1, doy: 4 }), { week: 24, year: 2024 });
  assert.equal(formatDate(new Date(2024, 5, 15), "w W", "en"), "24 24");
});

test("French names and ordinals", () => {
  assert.equal(formatDate(d, "dddd D MMMM YYYY", "fr"), "vendredi 5 janvier 2024");
  assert.equal(formatDate(new Date(2024, 0, 1), "Do MMM", "fr"), "1er janv.");
});

test("parse back what a format wrote, and refuse what it could not have written", () => {
  assert.equal(parseDate("2024-01-05", "YYYY-MM-DD").getTime(), new Date(2024, 0, 5).getTime());
  assert.equal(parseDate("2024/January/2024-Jan-05", "YYYY/MMMM/YYYY-MMM-DD").getTime(), new Date(2024, 0, 5).getTime());
  assert.equal(parseDate("Friday, January 5th, 2024", "dddd, MMMM Do, YYYY").getTime(), new Date(2024, 0, 5).getTime());
  assert.equal(parseDate("2024-02-30", "YYYY-MM-DD"), null);
  assert.equal(parseDate("Thursday, January 5th, 2024", "dddd, MMMM Do, YYYY"), null);
  assert.equal(parseDate("notes", "YYYY-MM-DD"), null);
  assert.equal(parseDate("5 janvier 2024", "D MMMM YYYY", "fr").getTime(), new Date(2024, 0, 5).getTime());
});
