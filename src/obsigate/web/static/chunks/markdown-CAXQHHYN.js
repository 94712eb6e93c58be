import{a as b,b as c}from"./chunk-ESTA4X74.js";import{a}from"./chunk-DBPT7IUU.js";import"./chunk-C2RC3QPW.js";export{a as DOMPurify,b as parseWikilink,c as renderMarkdown};
