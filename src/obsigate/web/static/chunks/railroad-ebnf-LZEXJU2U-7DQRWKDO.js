import{a as r,b as o}from"./chunk-D3V66OEG.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{r as RailroadEbnfModule,o as createRailroadEbnfServices};
