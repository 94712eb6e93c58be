import{a as e,b as r}from"./chunk-F4LELRRD.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as WardleyModule,r as createWardleyServices};
