import{a as r,b as o}from"./chunk-N5PG5YM6.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{r as RailroadEbnfModule,o as createRailroadEbnfServices};
