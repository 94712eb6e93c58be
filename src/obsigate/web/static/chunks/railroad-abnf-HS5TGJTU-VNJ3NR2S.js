import{a as r,b as o}from"./chunk-3V5J6LMW.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{r as RailroadAbnfModule,o as createRailroadAbnfServices};
