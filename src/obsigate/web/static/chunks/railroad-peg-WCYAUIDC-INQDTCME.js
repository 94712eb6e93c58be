import{a as e,b as r}from"./chunk-XGU4DDNF.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as RailroadPegModule,r as createRailroadPegServices};
