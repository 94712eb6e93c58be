import{a as r,b as o}from"./chunk-IUBCIODI.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{r as RailroadAbnfModule,o as createRailroadAbnfServices};
