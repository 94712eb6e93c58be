import{a as e,b as r}from"./chunk-LG3W27XC.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as TreemapModule,r as createTreemapServices};
