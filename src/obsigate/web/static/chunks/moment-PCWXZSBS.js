import{a,b,c}from"./chunk-CWE5S6SI.js";import"./chunk-C2RC3QPW.js";export{b as formatDate,c as parseDate,a as weekOfYear};
