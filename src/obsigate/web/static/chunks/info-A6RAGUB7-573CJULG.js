import{a as o,b as e}from"./chunk-O3QGLKTA.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{o as InfoModule,e as createInfoServices};
