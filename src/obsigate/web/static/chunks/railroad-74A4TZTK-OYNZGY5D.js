import{a as r,b as o}from"./chunk-LFHKGASQ.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{r as RailroadModule,o as createRailroadServices};
