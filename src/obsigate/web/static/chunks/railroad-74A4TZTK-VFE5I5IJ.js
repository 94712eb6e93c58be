import{a as r,b as o}from"./chunk-WKKMPFES.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{r as RailroadModule,o as createRailroadServices};
