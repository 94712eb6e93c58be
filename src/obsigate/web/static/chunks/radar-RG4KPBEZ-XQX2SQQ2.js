import{a as r,b as e}from"./chunk-YSIP52KU.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{r as RadarModule,e as createRadarServices};
