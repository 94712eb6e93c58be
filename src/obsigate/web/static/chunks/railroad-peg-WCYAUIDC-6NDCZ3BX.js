import{a as e,b as r}from"./chunk-JW2UMWFR.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as RailroadPegModule,r as createRailroadPegServices};
