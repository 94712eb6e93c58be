import{a as r,b as o}from"./chunk-CE33L5AX.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{r as RailroadEbnfModule,o as createRailroadEbnfServices};
