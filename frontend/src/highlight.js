// Syntax highlighting for fenced code in notes, loaded only when a note has some (its own chunk).
// highlight.js core with a set of common languages; its output (escaped text in <span class="hljs-…">)
// goes through DOMPurify like everything else, and colours come from app.css classes (no inline style).
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import ini from "highlight.js/lib/languages/ini";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { DOMPurify } from "./markdown.js";

const LANGS = { bash, c, cpp, css, diff, go, ini, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGS)) hljs.registerLanguage(name, lang);

/** Highlights every <code class="language-x"> under root whose language is known. */
export function highlightAll(root) {
  for (const code of root.querySelectorAll('pre > code[class*="language-"]')) {
    const lang = /language-([\w+#-]+)/.exec(code.className)?.[1]?.toLowerCase();
    if (!lang || !hljs.getLanguage(lang) || code.dataset.highlighted) continue;
    const html = hljs.highlight(code.textContent, { language: lang, ignoreIllegals: true }).value;
    code.innerHTML = DOMPurify.sanitize(html, { ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"] });
    code.classList.add("hljs");
    code.dataset.highlighted = "yes";
  }
}
