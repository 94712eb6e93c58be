import{a as r,b as e}from"./chunk-OAXZDXMX.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{r as GitGraphModule,e as createGitGraphServices};
