import{a as e,b as r}from"./chunk-NZ2SQTKG.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as WardleyModule,r as createWardleyServices};
