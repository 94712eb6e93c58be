import{a as e,b as r}from"./chunk-556KB7HQ.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as CynefinModule,r as createCynefinServices};
