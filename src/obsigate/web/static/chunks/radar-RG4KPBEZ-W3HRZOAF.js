import{a as r,b as e}from"./chunk-WBWT4ZH7.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{r as RadarModule,e as createRadarServices};
