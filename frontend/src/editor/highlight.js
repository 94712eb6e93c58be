// The editor's syntax colours in both themes (issue 19 item 7). basicSetup colours tokens with CodeMirror's
// defaultHighlightStyle, made for a white page: in the dark theme a task's `[ ]` or a URL (#219 on #1b1d23)
// read at 1.3:1 and a comment at 2.6:1 (axe-core color-contrast wants 4.5:1). This style has the same tags and
// looks as defaultHighlightStyle (@codemirror/language 6, src/highlight.ts), each colour a CSS variable:
// CodeMirror's own colour in the light theme (three darkened to reach 4.5:1 on white and on the active line),
// a light one in the dark theme (styles/a11y.css sets them, 5:1 or more on the dark page and active line).
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

/** [tags, CSS variable's name after --cm-hl-, light colour] for every coloured rule of defaultHighlightStyle. */
const COLOURS = [
  [t.meta, "meta", "#404740"],
  [t.keyword, "keyword", "#708"],
  [[t.atom, t.bool, t.url, t.contentSeparator, t.labelName], "atom", "#219"],
  [[t.literal, t.inserted], "literal", "#164"],
  [[t.string, t.deleted], "string", "#a11"],
  [[t.regexp, t.escape, t.special(t.string)], "regexp", "#b83200"], // CodeMirror: #e40, 3.8:1 on white
  [t.definition(t.variableName), "def", "#00f"],
  [t.local(t.variableName), "local", "#30a"],
  [[t.typeName, t.namespace], "type", "#076b45"], // CodeMirror: #085, 4.2:1 on the active line
  [t.className, "class", "#167"],
  [[t.special(t.variableName), t.macroName], "macro", "#256"],
  [t.definition(t.propertyName), "property", "#00c"],
  [t.comment, "comment", "#940"],
  [t.invalid, "invalid", "#c00"], // CodeMirror: #f00, 4:1 on white
];

/** defaultHighlightStyle's colours through CSS variables, and its other looks as they are. */
export const themeHighlightStyle = HighlightStyle.define([
  { tag: t.link, textDecoration: "underline" },
  { tag: t.heading, textDecoration: "underline", fontWeight: "bold" },
  { tag: t.emphasis, fontStyle: "italic" },
  { tag: t.strong, fontWeight: "bold" },
  { tag: t.strikethrough, textDecoration: "line-through" },
  ...COLOURS.map(([tag, name, light]) => ({ tag, color: `var(--cm-hl-${name}, ${light})` })),
]);

/** The extension: put it after basicSetup; basicSetup's default style is a fallback, used only without this one. */
export const themeHighlight = syntaxHighlighting(themeHighlightStyle);
