import{a as r,b as e}from"./chunk-3HMVM6PN.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{r as RadarModule,e as createRadarServices};
