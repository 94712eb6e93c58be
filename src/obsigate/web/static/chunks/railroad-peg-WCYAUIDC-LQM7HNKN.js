import{a as e,b as r}from"./chunk-LTM32IML.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as RailroadPegModule,r as createRailroadPegServices};
