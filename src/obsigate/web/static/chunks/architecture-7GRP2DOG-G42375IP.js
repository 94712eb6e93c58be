import{a as e,b as r}from"./chunk-K6GE2OD3.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as ArchitectureModule,r as createArchitectureServices};
