import{a as r,b as o}from"./chunk-P34WBC6C.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{r as RailroadAbnfModule,o as createRailroadAbnfServices};
