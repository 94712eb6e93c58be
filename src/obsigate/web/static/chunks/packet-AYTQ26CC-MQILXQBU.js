import{a as e,b as r}from"./chunk-BEVAGV5I.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as PacketModule,r as createPacketServices};
