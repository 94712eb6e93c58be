import{a as r,b as o}from"./chunk-D73RRQKF.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{r as RailroadModule,o as createRailroadServices};
