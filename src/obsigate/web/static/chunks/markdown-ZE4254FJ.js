import{a as b,b as c}from"./chunk-TCFBMO36.js";import{a}from"./chunk-VOKRX46Q.js";import"./chunk-C2RC3QPW.js";export{a as DOMPurify,b as parseWikilink,c as renderMarkdown};
