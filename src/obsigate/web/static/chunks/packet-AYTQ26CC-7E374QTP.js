import{a as e,b as r}from"./chunk-LAQQGD75.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as PacketModule,r as createPacketServices};
