import{a as e,b as r}from"./chunk-GQ65XTTA.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as PieModule,r as createPieServices};
