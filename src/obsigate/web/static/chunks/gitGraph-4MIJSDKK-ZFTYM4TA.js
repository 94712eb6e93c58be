import{a as r,b as e}from"./chunk-45RSRPDT.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{r as GitGraphModule,e as createGitGraphServices};
