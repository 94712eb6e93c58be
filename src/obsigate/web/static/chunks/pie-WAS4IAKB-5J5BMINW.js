import{a as e,b as r}from"./chunk-AARBVTKK.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as PieModule,r as createPieServices};
