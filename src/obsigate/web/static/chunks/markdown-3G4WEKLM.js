import{a,b,c}from"./chunk-NY67MKEF.js";import"./chunk-DCANE7XH.js";export{a as DOMPurify,b as parseWikilink,c as renderMarkdown};
