import{a as r,b as e}from"./chunk-PV27TSFB.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{r as GitGraphModule,e as createGitGraphServices};
