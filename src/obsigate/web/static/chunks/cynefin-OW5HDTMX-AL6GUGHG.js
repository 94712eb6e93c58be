import{a as e,b as r}from"./chunk-7WM4M26N.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as CynefinModule,r as createCynefinServices};
