import{a as e,b as r}from"./chunk-5R62MCZL.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as TreemapModule,r as createTreemapServices};
