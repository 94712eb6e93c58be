import{a as e,b as r}from"./chunk-OJGGC3GF.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as TreemapModule,r as createTreemapServices};
