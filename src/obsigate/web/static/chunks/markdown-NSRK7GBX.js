import{a,b,c}from"./chunk-F52UUT5P.js";import"./chunk-DCANE7XH.js";export{a as DOMPurify,b as parseWikilink,c as renderMarkdown};
