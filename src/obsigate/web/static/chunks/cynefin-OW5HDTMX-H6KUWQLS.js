import{a as e,b as r}from"./chunk-CPNWFFUL.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as CynefinModule,r as createCynefinServices};
