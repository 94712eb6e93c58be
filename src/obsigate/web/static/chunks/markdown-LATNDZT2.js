import{a as b,b as c}from"./chunk-H5MKTPCL.js";import{a}from"./chunk-DBPT7IUU.js";import"./chunk-DCANE7XH.js";export{a as DOMPurify,b as parseWikilink,c as renderMarkdown};
