import{a as o,b as e}from"./chunk-6QQJZZUB.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{o as InfoModule,e as createInfoServices};
