import{a as e,b as r}from"./chunk-35SV3K6J.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as ArchitectureModule,r as createArchitectureServices};
