import{a as o,b as e}from"./chunk-E53DQ3HK.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{o as InfoModule,e as createInfoServices};
