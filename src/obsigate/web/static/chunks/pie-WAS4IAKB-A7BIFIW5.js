import{a as e,b as r}from"./chunk-D54AWVT6.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as PieModule,r as createPieServices};
